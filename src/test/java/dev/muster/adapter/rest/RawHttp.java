package dev.muster.adapter.rest;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** HTTP/1.1 by hand, for what a well-behaved client cannot send (a Content-Length that lies, raw chunks). */
final class RawHttp {
    private RawHttp() {
    }

    static String post(int port, String path, String lengthHeader, String body) throws Exception {
        return send(port, "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + lengthHeader + "\r\nConnection: close\r\n\r\n" + body);
    }

    /** Sends {@code chunks} chunks of {@code chunkSize} bytes of JSON whitespace after an opening brace. */
    static String postChunked(int port, String path, int chunks, int chunkSize) throws Exception {
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] chunk = " ".repeat(chunkSize).getBytes(StandardCharsets.US_ASCII);
            try {
                for (int i = 0; i < chunks; i++) {
                    out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(chunk);
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (java.io.IOException closedEarly) {
                // the server may answer and close before the whole body is sent
            }
            return readAll(s.getInputStream());
        }
    }

    /** Sends {@code body} in chunks of {@code chunkSize} bytes (no Content-Length): the streamed path. */
    static String postChunked(int port, String path, byte[] body, int chunkSize) throws Exception {
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            for (int at = 0; at < body.length; at += chunkSize) {
                int n = Math.min(chunkSize, body.length - at);
                out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body, at, n);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return readAll(s.getInputStream());
        }
    }

    /**
     * Sends the headers with {@code Expect: 100-continue} and the body only after the server's interim
     * {@code 100 Continue}; fails if none comes within two seconds (curl would wait a second, then send anyway).
     */
    static String postExpectingContinue(int port, String path, byte[] body) throws Exception {
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(2_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length + "\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            StringBuilder interim = new StringBuilder();
            while (!interim.toString().endsWith("\r\n\r\n")) {
                int c = in.read(); // a SocketTimeoutException here: no 100 Continue
                if (c < 0) {
                    throw new IllegalStateException("closed before 100 Continue: " + interim);
                }
                interim.append((char) c);
            }
            if (!interim.toString().startsWith("HTTP/1.1 100")) {
                throw new IllegalStateException("expected 100 Continue, got " + interim);
            }
            s.setSoTimeout(30_000);
            out.write(body);
            out.flush();
            return readAll(in);
        }
    }

    /**
     * Sends two JSON POSTs with Content-Lengths back to back on one connection, the second before the first is
     * answered (pipelining), and returns both answers.
     */
    static String pipelined(int port, String path1, byte[] body1, String path2, byte[] body2) throws Exception {
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST " + path1 + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body1.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body1);
            out.write(("POST " + path2 + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body2.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body2);
            out.flush();
            return readAll(s.getInputStream());
        }
    }

    private static String send(int port, String request) throws Exception {
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().flush();
            return readAll(s.getInputStream());
        }
    }

    private static String readAll(InputStream in) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        byte[] b = new byte[8192];
        try {
            int n;
            while ((n = in.read(b)) > 0) {
                buf.write(b, 0, n);
            }
        } catch (SocketTimeoutException | java.net.SocketException e) {
            // what arrived is the answer
        }
        return buf.toString(StandardCharsets.UTF_8);
    }
}
