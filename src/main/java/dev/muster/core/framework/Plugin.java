package dev.muster.core.framework;

/**
 * A scheduling plugin. A plugin implements the extension points it needs; its {@link #name()} is the upstream
 * plugin name (for example {@code NodeResourcesFit}) and is the key a profile uses.
 */
public interface Plugin {
    String name();
}
