package org.ftlab.harness.workload.auction;

import java.util.ArrayList;
import java.util.List;
import org.ftlab.auction.api.AuctionDetails;
import org.ftlab.auction.api.AuctionDraft;
import org.ftlab.auction.api.AuctionPosted;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.auction.api.RequestHeader;
import org.ftlab.harness.failover.Call;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.failover.Outcome;
import org.ftlab.harness.history.Invocation;
import org.ftlab.harness.workload.ClientSession;
import org.ftlab.harness.workload.OperationOrder;
import org.ftlab.harness.workload.Workload;
import org.ftlab.os.access.DatabaseEndpoint;

/**
 * The auction service's workload (seed 002): each client posts auctions, then views them, oldest first, in turn; a
 * view reads the client's own anchor auction while it has posted none it can name (sized replies carry no auction
 * id). Every post is titled {@code <clientId>#<seq>}, so the checker ({@link ExactlyOnceAudit}) finds each in the
 * database after any number of retries and fail-overs and checks it is stored exactly once.
 */
public final class AuctionWorkload implements Workload {
    public static final String NAME = "auction";
    public static final String POST = "postAuction";
    public static final String VIEW = "viewAuction";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<String> operations() {
        return List.of(POST, VIEW);
    }

    /** Posts, then views: {@code --posts N --views M}. */
    @Override
    public OperationOrder order(int posts, int views) {
        return OperationOrder.of(new OperationOrder.Stretch(0, posts), new OperationOrder.Stretch(1, views));
    }

    @Override
    public AuctionClient open(ClientSession session) throws Exception {
        return AuctionClient.open(session);
    }

    /** Each auction posted once and viewed as posted, checked for linearizability from the run's history. */
    @Override
    public PostedAuctionModel model() {
        return new PostedAuctionModel();
    }

    @Override
    public Checker checker() {
        return (runDir, tables) -> ExactlyOnceAudit.check(DatabaseEndpoint.loadForAudits(runDir), tables);
    }

    /** One client of the auction: its account, its login, its anchor auction and the auctions it has posted. */
    public static final class AuctionClient implements Workload.Client {
        private final String clientId;
        private final String username;
        private final String token;
        private final long anchorAuctionId;
        private final List<Long> posted = new ArrayList<>();
        private int nextView;

        private AuctionClient(String clientId, String username, String token, long anchorAuctionId) {
            this.clientId = clientId;
            this.username = username;
            this.token = token;
            this.anchorAuctionId = anchorAuctionId;
        }

        /** Creates the session's account, logs in, and posts the anchor auction (natural reply). */
        public static AuctionClient open(ClientSession s) throws Exception {
            String token = s.signUp();
            RequestHeader anchor = s.next(ReplySize.ORIGINAL);
            AuctionDraft draft = new AuctionDraft("anchor of " + s.clientId, "viewed by sized-reply configurations",
                    100, 86_400);
            long anchorId = s.invoke(PostedAuctionModel.post(s.username(), draft), anchor,
                    svc -> svc.postAuction(anchor, token, draft), PostedAuctionModel::posted,
                    p -> Long.toString(p.auctionId())).result().value().auctionId();
            return new AuctionClient(s.clientId, s.username(), token, anchorId);
        }

        /** The login token of the client's account. */
        public String token() {
            return token;
        }

        /** An auction posted with the natural reply, viewed when sized replies carry no auction ids. */
        public long anchorAuctionId() {
            return anchorAuctionId;
        }

        @Override
        public Workload.Request next(int operation, RequestHeader header, String tag) {
            if (operation == 0) {
                AuctionDraft draft = new AuctionDraft(clientId + "#" + header.seq(), "grid " + tag, 100, 86_400);
                return new Post(header, draft);
            }
            return new View(header, nextViewed());
        }

        /** The next auction to view: the client's posts in turn, oldest first; its anchor while it has none. */
        private synchronized long nextViewed() {
            return posted.isEmpty() ? anchorAuctionId : posted.get(nextView++ % posted.size());
        }

        private synchronized void posted(long auctionId) {
            posted.add(auctionId);
        }

        private final class Post implements Workload.Request {
            private final RequestHeader header;
            private final AuctionDraft draft;

            Post(RequestHeader header, AuctionDraft draft) {
                this.header = header;
                this.draft = draft;
            }

            @Override
            public String method() {
                return POST;
            }

            @Override
            public Outcome<Reply<AuctionPosted>> invoke(FailoverClient client) throws Exception {
                return client.invoke(POST, svc -> svc.postAuction(header, token, draft));
            }

            @Override
            public Call<?> shadow() {
                RequestHeader shadow = header.shadow();
                return svc -> svc.postAuction(shadow, token, draft);
            }

            @Override
            public Invocation invocation() {
                return PostedAuctionModel.post(username, draft);
            }

            @Override
            public Object replyValue(Outcome<?> outcome) {
                return outcome.result() instanceof Reply<?> r && r.value() instanceof AuctionPosted p
                        ? PostedAuctionModel.posted(p) : null;
            }

            @Override
            public String replyKey(Outcome<?> outcome) {
                return outcome.result() instanceof Reply<?> r && r.value() instanceof AuctionPosted p
                        ? Long.toString(p.auctionId()) : null;
            }

            @Override
            public void completed(Outcome<?> outcome) {
                if (outcome.result() instanceof Reply<?> r && r.value() instanceof AuctionPosted p) {
                    posted(p.auctionId());
                }
            }
        }

        private record View(RequestHeader header, long auctionId) implements Workload.Request {
            @Override
            public String method() {
                return VIEW;
            }

            @Override
            public Outcome<?> invoke(FailoverClient client) throws Exception {
                return client.invoke(VIEW, svc -> svc.viewAuction(header, auctionId));
            }

            @Override
            public Call<?> shadow() {
                RequestHeader shadow = header.shadow();
                return svc -> svc.viewAuction(shadow, auctionId);
            }

            @Override
            public Invocation invocation() {
                return new Invocation(PostedAuctionModel.VIEW, Long.toString(auctionId), null);
            }

            @Override
            public Object replyValue(Outcome<?> outcome) {
                return outcome.result() instanceof Reply<?> r && r.value() instanceof AuctionDetails d
                        ? PostedAuctionModel.viewed(d) : null;
            }
        }
    }
}
