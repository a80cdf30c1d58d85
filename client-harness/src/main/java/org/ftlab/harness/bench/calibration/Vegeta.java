package org.ftlab.harness.bench.calibration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ftlab.rm.api.Platform;

/**
 * Vegeta (github.com/tsenart/vegeta), an open-loop HTTP load generator nobody here wrote: {@code vegeta attack} at a
 * constant rate with keep-alive HTTP/1.1 and as many workers as the connections (it adds workers when it falls
 * behind, so it stays open loop), then {@code vegeta report -type=json}. Its latency is from its send to the answer.
 * Never required: the calibration runs without it, and says so.
 */
final class Vegeta implements LeanClient {
    /** How to install it, for the message that says it is missing. */
    static final String INSTALL = "go install " + LeanClients.VEGETA_MODULE;
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path executable;
    private final Path workDir;

    Vegeta(Path executable, Path workDir) {
        this.executable = executable;
        this.workDir = workDir;
    }

    /** The {@code vegeta} on the {@code PATH}, if there is one. */
    static Optional<Path> onPath() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "vegeta");
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    @Override
    public String name() {
        return "vegeta";
    }

    @Override
    public Platform platform() {
        return Platform.REST;
    }

    @Override
    public boolean external() {
        return true;
    }

    @Override
    public String description() {
        return "vegeta " + version() + " (" + executable + "), attack at a constant rate, keep-alive HTTP/1.1";
    }

    /**
     * Its version: what {@code vegeta -version} says, or, for one built by {@code go install} (which stamps none), the
     * module version {@code go version -m} reads from the executable.
     */
    private String version() {
        String stamped = firstLine(List.of(executable.toString(), "-version"), "Version:");
        if (!stamped.isEmpty()) {
            return stamped;
        }
        String module = firstLine(List.of("go", "version", "-m", executable.toString()), "mod\t");
        String[] fields = module.split("\\s+");
        return fields.length >= 2 ? fields[1] : "(version not stamped)"; // path, version, hash
    }

    /** What follows {@code prefix} (a regular expression) on the first line of {@code command}'s output that has it. */
    private static String firstLine(List<String> command, String prefix) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(10, TimeUnit.SECONDS);
            Pattern line = Pattern.compile("^\\s*" + prefix + "(.*)$");
            return out.lines().map(line::matcher).filter(Matcher::matches).map(m -> m.group(1).trim()).findFirst()
                    .orElse("");
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    @Override
    public Latencies run(Endpoint endpoint, double ratePerS, Duration duration, int connections) throws Exception {
        long rate = Math.round(ratePerS);
        if (rate < 1 || Math.abs(rate - ratePerS) > 1e-9) {
            throw new IllegalArgumentException("vegeta attacks at a whole number of requests per second, not "
                    + ratePerS);
        }
        Files.createDirectories(workDir);
        Path targets = workDir.resolve("vegeta-targets.txt");
        StringBuilder t = new StringBuilder();
        for (String url : endpoint.viewUrls()) { // vegeta sends its targets in turn
            t.append("GET ").append(url).append('\n');
            endpoint.httpHeaders().forEach((k, v) -> t.append(k).append(": ").append(v).append('\n'));
            t.append('\n');
        }
        Files.writeString(targets, t.toString(), StandardCharsets.UTF_8);
        Path results = workDir.resolve("vegeta-results.bin");
        run(List.of(executable.toString(), "attack", "-rate=" + rate + "/1s", "-duration=" + duration.toMillis()
                + "ms", "-targets=" + targets, "-keepalive=true", "-http2=false", "-workers=" + connections,
                "-output=" + results), duration.plusSeconds(60));
        return fromReport(run(List.of(executable.toString(), "report", "-type=json", results.toString()),
                Duration.ofSeconds(60)));
    }

    /**
     * What {@code vegeta report -type=json} says: its latencies (nanoseconds) in µs; the requests answered with 200
     * are the requests, the others errors.
     *
     * @throws IOException if it is not such a report
     */
    static Latencies fromReport(String json) throws IOException {
        JsonNode report = JSON.readTree(json);
        JsonNode l = report.path("latencies");
        if (!l.has("50th") || !report.has("requests")) {
            throw new IOException("not a vegeta JSON report: "
                    + json.lines().findFirst().orElse("").substring(0, Math.min(80, json.length())));
        }
        long requests = report.path("requests").asLong();
        long ok = report.path("status_codes").path("200").asLong();
        return new Latencies(ok, requests - ok, l.path("50th").asDouble() / 1e3, l.path("99th").asDouble() / 1e3,
                l.path("max").asDouble() / 1e3, l.path("mean").asDouble() / 1e3, -1, -1);
    }

    /** Runs a vegeta command; its standard output. */
    private String run(List<String> command, Duration timeout) throws IOException, InterruptedException {
        Path err = workDir.resolve("vegeta-stderr.txt");
        Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new IOException("vegeta " + command.get(1) + " did not finish in " + timeout.toSeconds() + " s");
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.format(Locale.ROOT, "vegeta %s failed (exit %d): %s", command.get(1),
                    p.exitValue(), Files.readString(err).lines().findFirst().orElse("")));
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
