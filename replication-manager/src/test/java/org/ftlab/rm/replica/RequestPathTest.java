package org.ftlab.rm.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The request path's packages and the JIT settings that scale its compile thresholds. */
class RequestPathTest {
    @Test
    void theBeanHibernateAndTheDriverAreOnTheRequestPathTheJdkAndTheServersBootAreNot() {
        assertTrue(RequestPath.contains("org.hibernate.engine.spi.ActionQueue.executeActions(Lorg/hibernate/engine/spi/ExecutableList;)V"));
        assertTrue(RequestPath.contains("org.ftlab.auction.server.AuctionServiceBean.postAuction"));
        assertFalse(RequestPath.contains("java.util.HashMap.get(Ljava/lang/Object;)Ljava/lang/Object;"));
        assertFalse(RequestPath.contains("org.jboss.as.server.Main.main([Ljava/lang/String;)V"));
    }

    @Test
    void aScalingBelowOneScalesEveryRequestPathPackageAndOneChangesNothing() {
        List<String> options = RequestPath.jitOptions(0.25);
        assertEquals(RequestPath.PACKAGES.size() + 1, options.size());
        assertTrue(options.contains("-XX:CompileCommand=CompileThresholdScaling,org.hibernate.*::*,0.25"), options.toString());
        assertEquals(List.of(), RequestPath.jitOptions(1));
    }

    @Test
    void aScalingOfZeroOrAboveOneIsRefusedWithTheSettingsName() {
        for (double wrong : new double[] {0, -0.5, 1.5, Double.NaN}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RequestPath.jitOptions(wrong));
            assertTrue(e.getMessage().startsWith(RequestPath.JIT_SCALING_ENV), e.getMessage());
        }
    }

    @Test
    void anUnsetScalingIsTheDefaultTwentiethAndOneTurnsItOff() {
        assertEquals(RequestPath.DEFAULT_JIT_SCALING, RequestPath.jitScaling(null));
        assertEquals(RequestPath.DEFAULT_JIT_SCALING, RequestPath.jitScaling(" "));
        assertEquals(0.05, RequestPath.DEFAULT_JIT_SCALING);
        assertEquals(1, RequestPath.jitScaling("1"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RequestPath.jitScaling("abc"));
        assertTrue(e.getMessage().contains("was 'abc'"), e.getMessage());
    }
}
