package org.ftlab.auction.api.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ServerProbes;
import org.junit.jupiter.api.Test;

/** The server probes on the HTTP door's wire: every field, the arrival included, and a reply from before it. */
class HttpDoorProbesTest {
    private static final ObjectMapper JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final ServerProbes PROBES = new ServerProbes(1100, 1200, 1650, 1700, 1800, 42, 300, 25, 90, 11, 7);

    @Test
    void theArrivalTheDoorMeasuredTravelsWithTheBeansProbes() throws Exception {
        HttpDoor.WireReply<String> wire = HttpDoor.WireReply.of(new Reply<>("x", null, false, "r1", PROBES), 1050);
        byte[] bytes = JSON.writeValueAsBytes(wire);
        ServerProbes back = JSON.readValue(bytes, HttpDoor.WireReply.class).toReply().probes();
        assertEquals(1050, back.arrivedMicros());
        assertEquals(1100, back.receivedMicros());
        assertEquals(1650, back.commitStartMicros());
        assertEquals(7, back.dbConnection());
    }

    @Test
    void aReplyWithoutAnArrivalReadsUnknown() throws Exception {
        assertEquals(-1, PROBES.arrivedMicros(), "the EJB door's probes say nothing of it");
        assertEquals(-1, HttpDoor.WireReply.of(new Reply<>("x", null, false, "r1", PROBES), -1).toReply().probes()
                .arrivedMicros(), "a listener that did not record it");
        // a replica from before the field: its JSON has no arrivedMicros
        String older = "{\"value\":\"x\",\"replayed\":false,\"replica\":\"r1\",\"probes\":{\"receivedMicros\":1100,"
                + "\"dbStartMicros\":1200,\"commitStartMicros\":1650,\"dbEndMicros\":1700,\"replySentMicros\":1800,"
                + "\"threadId\":42,\"cpuMicros\":300,\"runQueueMicros\":25,\"dbCpuMicros\":90,\"dbRunQueueMicros\":11,"
                + "\"dbConnection\":7}}";
        assertEquals(-1, JSON.readValue(older, HttpDoor.WireReply.class).toReply().probes().arrivedMicros());
    }
}
