package org.ftlab.harness.workload.bids.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.ftlab.harness.history.HistoryEvent;
import org.ftlab.harness.history.HistoryFiles;
import org.ftlab.harness.workload.bids.AuctionRaceModel;

/**
 * A linearizable history of the bids workload made without a lab, for timing the checker: {@code clients} processes
 * race on {@code keys} auctions, each with one offer in flight at a time; every offer takes effect at a random point
 * between its invocation and its completion, so any of the offers in flight may go first, and its reply is the
 * auction's state at that point. A share of offers ends in {@code info} (no reply), half of them having taken effect:
 * the checker must find where, or that they never did. Each auction's accepted bids are read at the end (Jepsen's
 * final read).
 */
public final class SyntheticBids {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Events per history part written. */
    private static final int PART = 200_000;

    private SyntheticBids() {
    }

    /** What was written: events and how many offers ended in info. */
    public record Written(long events, long offers, long unknown) {
    }

    private record Pending(long time, int kind, int process) {
    }

    private static final int INVOKE = 0;
    private static final int EFFECT = 1;
    private static final int RETURN = 2;

    /** Writes the history of {@code offers} offers into {@code historyDir}, as parts of a run's history. */
    public static Written write(Path historyDir, long offers, int keys, int clients, double unknownShare, long seed)
            throws IOException {
        return write(historyDir, offers, keys, clients, unknownShare, seed, -1);
    }

    /**
     * As above; when {@code brokenAt} is not negative, the first accepted offer completed after that many offers were
     * invoked gets a reply that counts a bid too many: the history is then not linearizable, on that offer's key.
     */
    public static Written write(Path historyDir, long offers, int keys, int clients, double unknownShare, long seed,
            long brokenAt) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        Sink sink = new Sink(historyDir);
        long[] price = new long[keys];
        String[] leader = new String[keys];
        int[] count = new int[keys];
        List<List<ObjectNode>> accepted = new ArrayList<>();
        long nextBid = 1;
        long start = 1_000;
        for (int k = 0; k < keys; k++) {
            ObjectNode v = NODES.objectNode().put("start_cents", start);
            sink.add(HistoryEvent.Type.INVOKE, AuctionRaceModel.POST, v, clients + k, null, "setup", k);
            sink.add(HistoryEvent.Type.OK, AuctionRaceModel.POST, NODES.objectNode().put("auction", k), clients + k,
                    Integer.toString(k), "setup", k);
            accepted.add(new ArrayList<>());
        }
        long nextProcess = clients + keys;
        long[] process = new long[clients];
        int[] key = new int[clients];
        long[] amount = new long[clients];
        boolean[] lost = new boolean[clients];
        boolean[] applies = new boolean[clients];
        ObjectNode[] reply = new ObjectNode[clients];
        long[][] own = new long[clients][keys];
        PriorityQueue<Pending> queue = new PriorityQueue<>((a, b) -> a.time() != b.time()
                ? Long.compare(a.time(), b.time()) : Integer.compare(a.kind(), b.kind()));
        for (int c = 0; c < clients; c++) {
            process[c] = c;
            queue.add(new Pending(random.nextInt(1_000), INVOKE, c));
        }
        long invoked = 0;
        long unknown = 0;
        while (!queue.isEmpty()) {
            Pending p = queue.poll();
            int c = p.process();
            String bidder = "c" + c;
            switch (p.kind()) {
                case INVOKE -> {
                    if (invoked == offers) {
                        continue;
                    }
                    invoked++;
                    int k = random.nextInt(keys);
                    key[c] = k;
                    amount[c] = start + own[c][k]++ * 20 + random.nextInt(200) * (long) Math.max(1, clients / 4);
                    lost[c] = random.nextDouble() < unknownShare;
                    applies[c] = !lost[c] || random.nextBoolean();
                    sink.add(HistoryEvent.Type.INVOKE, AuctionRaceModel.OFFER, NODES.objectNode()
                            .put("bidder", bidder).put("amount_cents", amount[c]), process[c], Integer.toString(k),
                            bidder, invoked);
                    long effect = p.time() + 1 + random.nextInt(50 * clients);
                    queue.add(new Pending(effect, EFFECT, c));
                    queue.add(new Pending(effect + 1 + random.nextInt(50 * clients), RETURN, c));
                }
                case EFFECT -> {
                    int k = key[c];
                    boolean beats = amount[c] > (count[k] == 0 ? start - 1 : price[k]);
                    long bid = 0;
                    if (applies[c] && beats) {
                        price[k] = amount[c];
                        leader[k] = bidder;
                        count[k]++;
                        bid = nextBid++;
                        accepted.get(k).add(NODES.objectNode().put("bid", bid).put("bidder", bidder)
                                .put("amount_cents", amount[c]));
                    }
                    reply[c] = NODES.objectNode().put("accepted", beats).put("leader", leader[k])
                            .put("price_cents", price[k]).put("count", count[k]).put("bid", bid);
                }
                case RETURN -> {
                    if (lost[c]) {
                        unknown++;
                        sink.add(HistoryEvent.Type.INFO, AuctionRaceModel.OFFER, NODES.objectNode()
                                .put("error", "AllReplicasDownException"), process[c], Integer.toString(key[c]),
                                bidder, invoked);
                        process[c] = nextProcess++;
                    } else {
                        if (brokenAt >= 0 && invoked >= brokenAt && reply[c].path("accepted").asBoolean()) {
                            reply[c].put("count", reply[c].path("count").asInt() + 1);
                            brokenAt = -1;
                        }
                        sink.add(HistoryEvent.Type.OK, AuctionRaceModel.OFFER, reply[c], process[c],
                                Integer.toString(key[c]), bidder, invoked);
                    }
                    queue.add(new Pending(p.time() + random.nextInt(20), INVOKE, c));
                }
                default -> throw new IllegalStateException();
            }
        }
        for (int k = 0; k < keys; k++) { // the final reads: each auction's accepted bids
            long reader = nextProcess++;
            sink.add(HistoryEvent.Type.INVOKE, AuctionRaceModel.READ, null, reader, Integer.toString(k), "reader", k);
            ObjectNode bids = NODES.objectNode();
            bids.putArray("bids").addAll(accepted.get(k));
            sink.add(HistoryEvent.Type.OK, AuctionRaceModel.READ, bids, reader, Integer.toString(k), "reader", k);
        }
        sink.flush();
        return new Written(sink.index, invoked, unknown);
    }

    /** Writes the events in parts, their times the simulation's microseconds in nanoseconds. */
    private static final class Sink {
        private final Path dir;
        private final List<HistoryEvent> part = new ArrayList<>(PART);
        private long index;
        private long time;

        Sink(Path dir) {
            this.dir = dir;
        }

        void add(HistoryEvent.Type type, String f, ObjectNode value, long process, String key, String client,
                long seq) throws IOException {
            time += 1_000;
            part.add(new HistoryEvent(index++, type, f, value, process, time, key, client, seq, null, null));
            if (part.size() == PART) {
                flush();
            }
        }

        void flush() throws IOException {
            if (!part.isEmpty()) {
                HistoryFiles.write(dir, part);
                part.clear();
            }
        }
    }
}
