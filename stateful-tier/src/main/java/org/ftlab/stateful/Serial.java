package org.ftlab.stateful;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;

/**
 * The tier's one byte form for what it stores (inputs, estimator changes, settings, checkpoints): Java serialization,
 * read back only as the tier's own types (an allow-list), so a tampered row cannot make a reader build other classes.
 */
public final class Serial {
    private static final ObjectInputFilter ONLY_TIER_TYPES = ObjectInputFilter.Config.createFilter(
            "org.ftlab.stateful.*;org.ftlab.tart.*;java.lang.*;java.util.*;[J;[D;maxdepth=40;!*");

    private Serial() {
    }

    public static byte[] toBytes(Serializable value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialize " + value.getClass().getName(), e);
        }
        return bytes.toByteArray();
    }

    /** Reads back a {@code type}; an unreadable or foreign value is an {@link IllegalStateException} naming it. */
    public static <T> T fromBytes(byte[] bytes, Class<T> type) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes)) {
            @Override
            protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException,
                    ClassNotFoundException {
                try {
                    return Class.forName(desc.getName(), false, Serial.class.getClassLoader());
                } catch (ClassNotFoundException e) {
                    return super.resolveClass(desc);
                }
            }
        }) {
            in.setObjectInputFilter(ONLY_TIER_TYPES);
            return type.cast(in.readObject());
        } catch (IOException | ClassNotFoundException | ClassCastException e) {
            throw new IllegalStateException("a stored " + type.getSimpleName() + " is unreadable: " + e.getMessage(),
                    e);
        }
    }
}
