package org.ftlab.auction.server;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.ftlab.auction.api.ReplySize;

/**
 * Turns reply values into the bytes the request log stores and into sized payloads.
 *
 * <p>Stored replies are read back only as the service's own reply types (an allow-list filter), so a tampered
 * request_log row cannot make a replica deserialize arbitrary classes.
 */
final class ReplyCodec {
    private static final ObjectInputFilter ONLY_REPLY_TYPES = ObjectInputFilter.Config.createFilter(
            "org.ftlab.auction.api.*;java.lang.*;java.util.*;maxdepth=10;maxbytes=1048576;!*");

    private ReplyCodec() {
    }

    static byte[] serialize(Serializable value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialize reply " + value.getClass().getName(), e);
        }
        return bytes.toByteArray();
    }

    static Serializable deserialize(byte[] stored) {
        try (ObjectInputStream in = new DeploymentObjectInputStream(new ByteArrayInputStream(stored))) {
            in.setObjectInputFilter(ONLY_REPLY_TYPES);
            return (Serializable) in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("stored reply in request_log is unreadable", e);
        }
    }

    /**
     * The payload for a sized reply: the natural reply's text form in UTF-8, padded with zero bytes or trimmed to
     * exactly {@code size.bytes()} bytes.
     */
    static byte[] sizedPayload(Object value, ReplySize size) {
        byte[] natural = String.valueOf(value).getBytes(StandardCharsets.UTF_8);
        return Arrays.copyOf(natural, size.bytes());
    }

    /** Resolves classes through the deployment's class loader, not the caller-sensitive default. */
    private static final class DeploymentObjectInputStream extends ObjectInputStream {
        DeploymentObjectInputStream(InputStream in) throws IOException {
            super(in);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            try {
                return Class.forName(desc.getName(), false, ReplyCodec.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                return super.resolveClass(desc);
            }
        }
    }
}
