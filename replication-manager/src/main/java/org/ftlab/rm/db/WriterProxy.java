package org.ftlab.rm.db;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The replicas' one address of a replicated database: a TCP forwarder that joins each connection to the current
 * writer, as ProxySQL, MaxScale or HAProxy do in front of a MariaDB cluster. The manager moves the writer
 * ({@link #pause()} at a failure, {@link #resume} at the promotion): connections to the old writer are cut (their
 * transactions fail, and the clients retry with the same request identity), and connections opened meanwhile wait up
 * to {@link #HOLD_MILLIS} ms for the new writer instead of failing. Mechanism only: which server is the writer is the
 * manager's decision.
 *
 * <p>One thread per direction per connection, blocking, {@code TCP_NODELAY} on both sides: the forwarding adds one
 * loopback hop per round trip (measured in docs/performance.md), and needs no library and no other process.
 */
public final class WriterProxy implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(WriterProxy.class.getName());
    /** How long a connection opened while there is no writer waits for one before it is refused. */
    public static final long HOLD_MILLIS = 10_000;
    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;
    private static final int BUFFER_BYTES = 16 * 1024;

    private final ServerSocket server;
    private final ExecutorService threads;
    private final Set<Pair> pairs = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    /** Where new connections go; null while paused. Guarded by {@link #gate}. */
    private InetSocketAddress writer;
    private volatile boolean closed;

    private WriterProxy(ServerSocket server, InetSocketAddress writer) {
        this.server = server;
        this.writer = writer;
        AtomicInteger n = new AtomicInteger();
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "db-proxy-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Listens on {@code bindAddress} (a free port) and forwards to {@code writer}. */
    public static WriterProxy start(String bindAddress, InetSocketAddress writer) throws IOException {
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getByName(bindAddress), 0), 200);
        WriterProxy proxy = new WriterProxy(server, writer);
        proxy.threads.execute(proxy::acceptLoop);
        return proxy;
    }

    public int port() {
        return server.getLocalPort();
    }

    public String address() {
        return server.getInetAddress().getHostAddress();
    }

    /** Where new connections go now, or null while there is no writer. */
    public InetSocketAddress writer() {
        synchronized (gate) {
            return writer;
        }
    }

    /** No writer for now: new connections wait, and every connection to the old writer is cut. */
    public void pause() {
        synchronized (gate) {
            writer = null;
        }
        cutAll();
    }

    /** {@code newWriter} takes writes: waiting and new connections go there (any left to another are cut). */
    public void resume(InetSocketAddress newWriter) {
        synchronized (gate) {
            writer = newWriter;
            gate.notifyAll();
        }
        for (Pair p : pairs) {
            if (!p.upstreamAddress.equals(newWriter)) {
                p.close();
            }
        }
    }

    /** Cuts every forwarded connection; returns how many. */
    public int cutAll() {
        int n = 0;
        for (Pair p : pairs) {
            p.close();
            n++;
        }
        return n;
    }

    /**
     * The ends the database sees for connections whose client ends are {@code clientEnds}: the forwarder's own sockets
     * to the writer, which a fence ends by process-list entry.
     */
    Set<SessionFence.ClientEnd> seenByDatabase(Set<SessionFence.ClientEnd> clientEnds) {
        Set<SessionFence.ClientEnd> ends = new HashSet<>();
        for (Pair p : pairs) {
            if (clientEnds.contains(p.clientEnd)) {
                ends.add(p.upstreamEnd);
            }
        }
        return ends;
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(Level.WARNING, "database proxy: accept failed", e);
                }
                return;
            }
            threads.execute(() -> join(client));
        }
    }

    private void join(Socket client) {
        Socket upstream = null;
        try {
            client.setTcpNoDelay(true);
            InetSocketAddress to = awaitWriter();
            if (to == null) {
                client.close();
                return;
            }
            upstream = new Socket();
            upstream.setTcpNoDelay(true);
            upstream.connect(to, CONNECT_TIMEOUT_MILLIS);
            Socket joined = upstream;
            Pair pair = new Pair(client, joined, to);
            pairs.add(pair);
            if (closed || !to.equals(writer())) {
                pair.close(); // the writer moved while this one connected
                return;
            }
            threads.execute(() -> pair.pump(joined, client));
            pair.pump(client, joined);
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(upstream);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }

    private InetSocketAddress awaitWriter() throws InterruptedException {
        long deadline = System.nanoTime() + HOLD_MILLIS * 1_000_000;
        synchronized (gate) {
            while (writer == null && !closed) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    return null;
                }
                gate.wait(left);
            }
            return closed ? null : writer;
        }
    }

    @Override
    public void close() {
        closed = true;
        synchronized (gate) {
            gate.notifyAll();
        }
        closeQuietly(server);
        cutAll();
        threads.shutdownNow();
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                // closing is best effort
            }
        }
    }

    /** One forwarded connection: a client's socket and the forwarder's socket to the writer. */
    private final class Pair {
        final Socket client;
        final Socket upstream;
        final InetSocketAddress upstreamAddress;
        final SessionFence.ClientEnd clientEnd;
        final SessionFence.ClientEnd upstreamEnd;

        Pair(Socket client, Socket upstream, InetSocketAddress upstreamAddress) {
            this.client = client;
            this.upstream = upstream;
            this.upstreamAddress = upstreamAddress;
            this.clientEnd = new SessionFence.ClientEnd(client.getInetAddress().getHostAddress(), client.getPort());
            this.upstreamEnd = new SessionFence.ClientEnd(upstream.getLocalAddress().getHostAddress(),
                    upstream.getLocalPort());
        }

        void pump(Socket from, Socket to) {
            byte[] buffer = new byte[BUFFER_BYTES];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                }
            } catch (SocketException e) {
                // cut, or the other side went away
            } catch (IOException e) {
                LOG.log(Level.FINE, "database proxy: connection ended", e);
            } finally {
                close();
            }
        }

        void close() {
            pairs.remove(this);
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }
}
