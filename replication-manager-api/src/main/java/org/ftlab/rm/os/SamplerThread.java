package org.ftlab.os;

/**
 * The daemon thread of a sampler that reads something every few ms until closed (the manager's lock-wait and host
 * samplers): its loop asks {@link #stopped()}; {@link #close()} stops it, interrupts its sleep and waits for it to
 * finish its last sample (at most 2 s).
 */
public final class SamplerThread implements AutoCloseable {
    private final Thread thread;
    private volatile boolean stopped;

    private SamplerThread(String name, Runnable loop) {
        this.thread = new Thread(loop, name);
        this.thread.setDaemon(true);
    }

    /** A sampler thread named {@code name} running {@code loop}, not yet started: the loop may refer to it first. */
    public static SamplerThread of(String name, Runnable loop) {
        return new SamplerThread(name, loop);
    }

    /** Starts it; returns it. */
    public SamplerThread start() {
        thread.start();
        return this;
    }

    /** Whether {@link #close()} was called: the loop ends. */
    public boolean stopped() {
        return stopped;
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
