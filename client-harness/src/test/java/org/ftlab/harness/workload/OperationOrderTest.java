package org.ftlab.harness.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.ftlab.harness.workload.OperationOrder.Stretch;
import org.junit.jupiter.api.Test;

class OperationOrderTest {
    @Test
    void measuredRequestsGoStretchAfterStretchInTheOrderGiven() {
        OperationOrder order = OperationOrder.of(new Stretch(2, 2), new Stretch(0, 3), new Stretch(1, 1));
        List<Integer> ops = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            ops.add(order.operationAt(i));
        }
        assertEquals(List.of(2, 2, 0, 0, 0, 1), ops);
        assertEquals(List.of(1, 4, 5), List.of(order.lastOf(0), order.lastOf(1), order.lastOf(2)));
        assertEquals(1, order.stretchAt(3));
    }

    @Test
    void aStretchOfNoRequestsIsLeftOutAndAnOrderOfNoneIsRefused() {
        OperationOrder order = OperationOrder.of(new Stretch(0, 5), new Stretch(1, 0));
        assertEquals(List.of(new Stretch(0, 5)), order.stretches());
        assertThrows(IllegalArgumentException.class, () -> OperationOrder.of(new Stretch(0, 0)));
    }

    @Test
    void twoStretchesMixTheirWarmUpsAsTheGridAlwaysHas() {
        // the grid's rule before workloads chose their order: the first operation spread evenly in its proportion
        for (int posts = 1; posts <= 12; posts++) {
            for (int views = 0; views <= 12; views++) {
                OperationOrder order = OperationOrder.of(new Stretch(0, posts), new Stretch(1, views));
                long total = posts + views;
                for (int i = 0; i < 100; i++) {
                    int before = (i + 1) * (long) posts / total > i * (long) posts / total ? 0 : 1;
                    assertEquals(before, order.warmupOperation(i), posts + "+" + views + ", request " + i);
                }
            }
        }
    }

    @Test
    void anyNumberOfStretchesMixTheirWarmUpsEachInItsProportion() {
        OperationOrder order = OperationOrder.of(new Stretch(1, 2), new Stretch(0, 30), new Stretch(2, 2),
                new Stretch(3, 6));
        int[] counts = new int[4];
        for (int i = 0; i < 3 * order.size(); i++) {
            counts[order.warmupOperation(i)]++;
        }
        assertEquals(List.of(90, 6, 6, 18), List.of(counts[0], counts[1], counts[2], counts[3]),
                "three cycles: each operation three times its stretch");
    }

    @Test
    void aOneOperationWorkloadTakesNoSecondCount() {
        Workload one = new Workload() {
            @Override
            public String name() {
                return "one";
            }

            @Override
            public List<String> operations() {
                return List.of("op");
            }

            @Override
            public OperationOrder order(int posts, int views) {
                return OperationOrder.single(this, posts, views);
            }

            @Override
            public Client open(ClientSession session) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Checker checker() {
                throw new UnsupportedOperationException();
            }
        };
        assertEquals(7, one.order(7, 0).size());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> one.order(7, 1));
        assertEquals("workload one has one operation (op): give --views 0", e.getMessage());
    }
}
