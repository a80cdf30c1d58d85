package org.ftlab.stateful;

/**
 * What a gateway does with an input before the engine sees it: checks that cost a number of loop iterations known
 * before the loop starts (so the gateway is prescient, as the paper's word count), a deterministic function of the
 * input. {@code spread} is the study's work variability: iterations are uniform from {@code 10 − spread} to
 * {@code 10 + spread} (0: always 10; 9: 1 to 19, the paper's widest).
 */
public final class GatewayWork {
    /** Mean iterations per input. */
    public static final int MEAN_ITERATIONS = 10;
    /** Mixing rounds per iteration: about 10 µs of one core here. */
    static final int ROUNDS = 2_000;

    private GatewayWork() {
    }

    /** The iterations the input {@code in} costs at variability {@code spread} (0 to 9). */
    public static long iterations(Input in, int spread) {
        checkSpread(spread);
        long h = mix(in.clientId().hashCode() * 0x9E3779B97F4A7C15L + in.seq());
        return MEAN_ITERATIONS - spread + Math.floorMod(h, 2L * spread + 1);
    }

    /** The least iterations any input costs at {@code spread}. */
    public static long minIterations(int spread) {
        checkSpread(spread);
        return MEAN_ITERATIONS - spread;
    }

    /** Runs the checks: {@code iterations} rounds of mixing over the input; returns their digest. */
    public static long run(Input in, long iterations) {
        long s = in.key().hashCode();
        for (long i = 0; i < iterations; i++) {
            for (int r = 0; r < ROUNDS; r++) {
                s = mix(s + r);
            }
        }
        return s;
    }

    static void checkSpread(int spread) {
        if (spread < 0 || spread > MEAN_ITERATIONS - 1) {
            throw new IllegalArgumentException("work spread must be 0 to " + (MEAN_ITERATIONS - 1) + ", was "
                    + spread);
        }
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
