package dev.muster.core.model;

/** A container port with a host port (only those matter to NodePorts). hostIP "" means 0.0.0.0. */
public record HostPort(String hostIP, String protocol, int port) {
    public HostPort {
        hostIP = hostIP == null || hostIP.isEmpty() ? "0.0.0.0" : hostIP;
        protocol = protocol == null || protocol.isEmpty() ? "TCP" : protocol;
    }

    /** Upstream HostPortInfo conflict rule: same protocol and port, and either side on 0.0.0.0 or the same IP. */
    public boolean conflicts(HostPort other) {
        if (port != other.port || !protocol.equals(other.protocol)) {
            return false;
        }
        return hostIP.equals("0.0.0.0") || other.hostIP.equals("0.0.0.0") || hostIP.equals(other.hostIP);
    }
}
