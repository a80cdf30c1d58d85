package org.ftlab.harness.workload;

/**
 * The {@code ftlab grid} command line as a workload's options read it and may rewrite it: the workload it runs
 * ({@code --workload}, its default when not given), and the options it was given that a workload's options may
 * depend on, each null when not given: the counts per client ({@code --posts}, {@code --views}), the reply sizes
 * ({@code --reply}), the fail-over strategies ({@code --strategy}) and the middleware platforms ({@code --platform}),
 * as typed.
 */
public record GridLine(String workload, Integer posts, Integer views, String reply, String strategy,
        String platform) {
    /** This line running workload {@code name}. */
    public GridLine withWorkload(String name) {
        return new GridLine(name, posts, views, reply, strategy, platform);
    }

    /** This line with {@code --posts newPosts --views newViews}. */
    public GridLine withCounts(int newPosts, int newViews) {
        return new GridLine(workload, newPosts, newViews, reply, strategy, platform);
    }

    /** This line with {@code --reply newReply}. */
    public GridLine withReply(String newReply) {
        return new GridLine(workload, posts, views, newReply, strategy, platform);
    }
}
