package dev.muster.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The commands of the README and {@code docs/} run as written against the packaged jar: the curl requests (JSON and
 * YAML decisions, validations, derivations, health, metrics, the OpenAPI document, the served examples, the DRA
 * example), the gRPC recipe (protoc, the 5-byte framing with printf and xxd, curl over HTTP/2, protoc --decode), the
 * Java gRPC client (compiled and run), and the TLS recipe (openssl certificates, the jar started with the
 * {@code tls} and {@code mtls} profiles, curl with and without the client certificate).
 *
 * <p>Each fenced {@code bash}, {@code sh} or {@code java} block of those pages carries a marker on the line before
 * it: {@code <!-- docs-commands: ID -->} for a block this test runs (the ID says what is asserted of it), or
 * {@code <!-- docs-commands: not run: REASON -->} for one it cannot run here (a Kubernetes cluster, a Docker engine).
 * A block without a marker, an ID this test does not know, or a known ID no page has fails the test.
 *
 * <p>A block runs with the shell its fence names ({@code sh} is Debian's dash), with {@code -e}, in
 * {@code target/docs-commands/}, a folder that links every entry of the repository root, so that paths such as
 * {@code openapi/examples/training-job.json} and {@code target/quarkus-app/quarkus-run.jar} resolve as from the
 * root. The only changes to a block's text are the ports: 8080 and 8443 are used when free, else free ports take
 * their place (and the server is started with {@code QUARKUS_HTTP_PORT}/{@code QUARKUS_HTTP_SSL_PORT}). In a block
 * that builds and starts the jar, {@code mvn} is a stand-in that accepts only a package step: the build running
 * this test has just packaged it. Tools a block needs (curl, openssl, xxd, protoc) that are missing fail the test
 * with the Debian package to install ({@code .ci/run} installs them). Run by failsafe in {@code verify}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocsCommandsIT {
    private static final Path ROOT = Path.of("").toAbsolutePath();
    private static final Path JAR = ROOT.resolve("target/quarkus-app/quarkus-run.jar");
    private static final Path WORK = ROOT.resolve("target/docs-commands");
    private static final Pattern FENCE = Pattern.compile("^(\\s*)(`{3,}|~{3,})\\s*([^\\s`]*).*$");
    private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*docs-commands:\\s*(.*?)\\s*-->\\s*$");
    private static final Set<String> CHECKED_LANGUAGES = Set.of("bash", "sh", "shell", "console", "zsh", "java");
    private static final int DOC_PORT = 8080;
    private static final int DOC_TLS_PORT = 8443;
    private static final long COMMAND_SECONDS = 60;
    private static final long START_SECONDS = 90;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A health answer that is UP. */
    private static final String UP = "\"status\"\\s*:\\s*\"UP\"";

    /** The IDs this test runs, each with what it asserts (see {@link #steps()}). */
    private static final Set<String> IDS = Set.of("readme-start", "readme-json", "readme-yaml", "readme-choices", "api-validations",
            "api-derivations", "api-operations", "dra-gang", "grpc-curl", "grpc-java", "tls-certificates",
            "tls-start", "tls-curl", "mtls-start", "mtls-curl");

    /** A fenced block: the page and line of its fence, its language, the marker before it (or null), its text. */
    record Block(Path page, int line, String language, String marker, String text) {
        String where() {
            return ROOT.relativize(page) + ":" + line;
        }
    }

    /** What a command printed and how it ended. */
    record Result(int status, String out, String err) {
        String describe() {
            return "exit status " + status + "\n--- stdout ---\n" + out + "\n--- stderr ---\n" + err;
        }
    }

    private final Map<String, Block> byId = new LinkedHashMap<>();
    private final Map<String, Result> results = new LinkedHashMap<>();
    private final List<Process> servers = new ArrayList<>();
    private int port;
    private int tlsPort;

    // ------------------------------------------------------------------------------------------------ the pages

    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    static List<Block> blocks(Path page) throws IOException {
        List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                continue;
            }
            int indent = open.group(1).length();
            String fence = open.group(2);
            String language = open.group(3).toLowerCase();
            StringBuilder text = new StringBuilder();
            int j = i + 1;
            for (; j < lines.size(); j++) {
                String line = lines.get(j);
                String trimmed = line.strip();
                if (trimmed.startsWith(fence) && trimmed.chars().allMatch(c -> c == fence.charAt(0))) {
                    break;
                }
                int strip = 0;
                while (strip < indent && strip < line.length() && line.charAt(strip) == ' ') {
                    strip++;
                }
                text.append(line.substring(strip)).append('\n');
            }
            String marker = null;
            if (i > 0) {
                Matcher m = MARKER.matcher(lines.get(i - 1));
                if (m.matches()) {
                    marker = m.group(1);
                }
            }
            blocks.add(new Block(page, i + 1, language, marker, text.toString()));
            i = j;
        }
        return blocks;
    }

    @Test
    void everyCommandBlockIsRunOrSaysWhyNot() throws IOException {
        List<String> problems = new ArrayList<>();
        Map<String, List<String>> seen = new LinkedHashMap<>();
        for (Path page : pages()) {
            for (Block b : blocks(page)) {
                if (b.marker() == null) {
                    if (CHECKED_LANGUAGES.contains(b.language())) {
                        problems.add(b.where() + ": a " + b.language() + " block without a <!-- docs-commands: ID -->"
                                + " or <!-- docs-commands: not run: REASON --> line before it");
                    }
                    continue;
                }
                if (b.marker().startsWith("not run")) {
                    if (!b.marker().matches("not run: \\S.*")) {
                        problems.add(b.where() + ": 'not run' without ': reason'");
                    }
                    continue;
                }
                seen.computeIfAbsent(b.marker(), k -> new ArrayList<>()).add(b.where());
                if (!IDS.contains(b.marker())) {
                    problems.add(b.where() + ": ID '" + b.marker() + "' is not one DocsCommandsIT runs " + IDS);
                }
            }
        }
        seen.forEach((id, where) -> {
            if (where.size() > 1) {
                problems.add("ID '" + id + "' marks more than one block: " + where);
            }
        });
        Set<String> missing = new TreeSet<>(IDS);
        missing.removeAll(seen.keySet());
        if (!missing.isEmpty()) {
            problems.add("no block is marked with " + missing);
        }
        assertThat(problems).as("docs-commands markers").isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ the run

    @TestFactory
    List<DynamicTest> theDocumentationsCommandsRunAsWritten() throws IOException {
        assumeTrue(Files.exists(JAR), "the fast-jar is packaged (not a native build)");
        requireTools();
        for (Path page : pages()) {
            for (Block b : blocks(page)) {
                if (b.marker() != null && IDS.contains(b.marker())) {
                    byId.putIfAbsent(b.marker(), b);
                }
            }
        }
        prepareWorkDir();
        port = portFor(DOC_PORT);
        tlsPort = portFor(DOC_TLS_PORT);
        return steps();
    }

    private List<DynamicTest> steps() {
        List<DynamicTest> steps = new ArrayList<>();
        step(steps, "readme-start", () -> startServer("readme-start", false));
        step(steps, "readme-json", () -> {
            JsonNode answer = json(runOk("readme-json"));
            JsonNode d = decisionOf(answer, "podGroup", "some-ns", "training-job-workers-pg");
            assertThat(d.path("outcome").asText()).as(answer.toString()).isEqualTo("Scheduled");
            List<String> placed = new ArrayList<>();
            d.path("placements").forEach(p -> placed.add(p.path("pod").path("name").asText()));
            assertThat(placed).as("the gang's four workers are placed").hasSize(4).doesNotHaveDuplicates()
                    .allMatch(name -> name.startsWith("worker-"));
        });
        step(steps, "readme-yaml", () -> {
            Result yaml = runOk("readme-yaml");
            Result json = results.get("readme-json");
            assertThat(json).as("readme-json ran").isNotNull();
            assertThat(yaml.out()).as("the YAML request's answer is the JSON request's, byte for byte")
                    .isNotEmpty().isEqualTo(json.out());
        });
        step(steps, "readme-choices", () -> {
            JsonNode choices = json(runOk("readme-choices")).path("choices");
            assertThat(choices.size()).as(choices.toString()).isEqualTo(2);
            assertThat(choices.at("/0/cluster").asText()).as(choices.toString()).isEqualTo("us-east-2");
            assertThat(choices.at("/0/fit").asText()).as(choices.toString()).isEqualTo("Fits");
            assertThat(choices.at("/1/fit").asText()).as(choices.toString()).isEqualTo("FitsWithPreemption");
            assertThat(choices.at("/1/message").asText()).as(choices.toString()).startsWith("fits after evicting 1 pod");
        });
        step(steps, "api-validations", () -> assertThat(json(runOk("api-validations")))
                .isEqualTo(JSON.readTree("{\"valid\": true}")));
        step(steps, "api-derivations", () -> {
            JsonNode d = json(runOk("api-derivations")).path("derivations").path(0);
            assertThat(d.path("job").path("name").asText()).as(d.toString()).isEqualTo("train");
            assertThat(d.path("qualifies").asBoolean()).as(d.toString()).isTrue();
            assertThat(d.at("/workload/spec/podGroupTemplates/0/schedulingPolicy/gang/minCount").asInt())
                    .as(d.toString()).isEqualTo(4);
            assertThat(d.at("/podGroup/metadata/name").asText()).as(d.toString()).startsWith("train-");
        });
        step(steps, "api-operations", () -> {
            String out = runOk("api-operations").out();
            assertThat(out).containsPattern(UP);
            Matcher scheduled = Pattern.compile(
                    "(?m)^scheduler_podgroup_schedule_attempts_total\\{[^}]*result=\"scheduled\"[^}]*} (\\S+)$")
                    .matcher(out);
            assertThat(scheduled.find()).as("a scheduled count in:\n" + out).isTrue();
            assertThat(Double.parseDouble(scheduled.group(1)))
                    .as("the README's JSON and YAML requests each scheduled the training job")
                    .isGreaterThanOrEqualTo(2);
            assertThat(out).contains("same as openapi/muster.yaml");
            assertThat(out).as("the served example is the committed one")
                    .endsWith(Files.readString(ROOT.resolve("openapi/examples/training-job.yaml")));
        });
        step(steps, "dra-gang", () -> {
            JsonNode answer = json(runOk("dra-gang"));
            JsonNode d = decisionOf(answer, "podGroup", "ml", "train");
            assertThat(d.path("outcome").asText()).as(answer.toString()).isEqualTo("Scheduled");
            Set<String> nodes = new HashSet<>();
            d.path("placements").forEach(p -> nodes.add(p.path("node").asText()));
            assertThat(d.path("placements")).hasSize(4);
            assertThat(nodes).as("all four members land on node-a, as the page says").containsExactly("node-a");
            Map<String, JsonNode> claims = new LinkedHashMap<>();
            d.path("claims").forEach(c -> claims.put(c.path("claim").path("name").asText(), c));
            assertThat(claims).containsKeys("train-0-gpu", "train-shared");
            assertThat(claims.get("train-0-gpu").at("/allocation/devices/results/0/device").asText())
                    .isEqualTo("gpu-0");
            JsonNode shared = claims.get("train-shared");
            assertThat(shared.at("/allocation/devices/results/0/device").asText()).isEqualTo("gpu-4");
            assertThat(shared.path("generatedFrom").asText()).isEqualTo("numa1-gpu");
            assertThat(shared.at("/reservedFor/0/resource").asText()).isEqualTo("podgroups");
        });
        step(steps, "grpc-curl", () -> {
            Result r = runOk("grpc-curl");
            byte[] framed = Files.readAllBytes(WORK.resolve("request.grpc"));
            long message = Files.size(WORK.resolve("request.bin"));
            assertThat(message).as(r.describe()).isPositive();
            assertThat(framed[0]).as("request.grpc's compression flag byte; " + r.describe()).isZero();
            assertThat((long) ByteBuffer.wrap(framed, 1, 4).getInt()).as("request.grpc's 4-byte length; "
                    + r.describe()).isEqualTo(message);
            assertThat((long) framed.length).as("request.grpc: the prefix and the message").isEqualTo(message + 5);
            assertThat(r.out()).as(r.describe()).contains("grpc-status: 0")
                    .contains("outcome: \"Scheduled\"").contains("name: \"web-0\"").contains("node: \"n1\"");
        });
        step(steps, "grpc-java", this::compileAndRunJava);
        step(steps, "stop the service", this::stopServers);
        step(steps, "tls-certificates", () -> {
            runOk("tls-certificates");
            Result verify = exec("openssl-verify",
                    List.of("openssl", "verify", "-CAfile", "ca.crt", "tls.crt", "client.crt"));
            assertThat(verify.status()).as(verify.describe()).isZero();
            assertThat(verify.out()).contains("tls.crt: OK").contains("client.crt: OK");
        });
        step(steps, "tls-start", () -> startServer("tls-start", true));
        step(steps, "tls-curl", () -> assertThat(runOk("tls-curl").out()).containsPattern(UP));
        step(steps, "stop the TLS service", this::stopServers);
        step(steps, "mtls-start", () -> startServer("mtls-start", true));
        step(steps, "tls-curl without a client certificate is refused by mtls", () -> {
            Result r = exec("tls-curl-against-mtls", shell(block("tls-curl")));
            assertThat(r.status()).as("curl without a client certificate against mtls: " + r.describe()).isNotZero();
            assertThat(r.out()).doesNotContain("UP");
            assertThat(r.err()).as("refused for its certificate in the handshake: " + r.describe())
                    .contains("certificate");
        });
        step(steps, "mtls-curl", () -> assertThat(runOk("mtls-curl").out()).containsPattern(UP));
        step(steps, "stop the mTLS service", this::stopServers);
        return steps;
    }

    interface Step {
        void run() throws Exception;
    }

    private void step(List<DynamicTest> steps, String name, Step step) {
        Block b = byId.get(name);
        String display = b == null ? name : name + " (" + b.where() + ")";
        steps.add(DynamicTest.dynamicTest(display, step::run));
    }

    // ------------------------------------------------------------------------------------------------ running

    private Block block(String id) {
        Block b = byId.get(id);
        assertThat(b).as("a block marked <!-- docs-commands: " + id + " -->").isNotNull();
        return b;
    }

    /** The block's text with the documented ports replaced by the ones in use (the same when they were free). */
    private String withPorts(String text) {
        return text.replace("localhost:" + DOC_PORT, "localhost:" + port)
                .replace("\"localhost\", " + DOC_PORT, "\"localhost\", " + port)
                .replace(".svc:" + DOC_TLS_PORT, ".svc:" + tlsPort);
    }

    private List<String> shell(Block b) {
        String shell = b.language().equals("sh") ? "sh" : "bash";
        return List.of(shell, "-e", "-c", withPorts(b.text()));
    }

    private Result run(String id) throws Exception {
        Result r = exec(id, shell(block(id)));
        results.put(id, r);
        return r;
    }

    private Result runOk(String id) throws Exception {
        Result r = run(id);
        assertThat(r.status()).as(block(id).where() + " " + id + ": " + r.describe()).isZero();
        return r;
    }

    private ProcessBuilder inWorkDir(List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(WORK.toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("QUARKUS_") || k.startsWith("MUSTER_"));
        env.put("PATH", WORK.resolve(".bin") + File.pathSeparator + System.getenv("PATH"));
        return pb;
    }

    /** Runs a command in the work folder; what it prints is kept in {@code .out/<label>.out} and {@code .err}. */
    private Result exec(String label, List<String> command) throws Exception {
        Path out = WORK.resolve(".out/" + label + ".out");
        Path err = WORK.resolve(".out/" + label + ".err");
        Process p = inWorkDir(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        if (!p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
            kill(p);
            throw new AssertionError("still running after " + COMMAND_SECONDS + " s: " + command + "\n"
                    + Files.readString(out) + Files.readString(err));
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** Starts a block that runs the jar, and waits until it listens on its port. */
    private void startServer(String id, boolean tls) throws Exception {
        Block b = block(id);
        ProcessBuilder pb = inWorkDir(shell(b));
        int listen = tls ? tlsPort : port;
        if (tls && tlsPort != DOC_TLS_PORT) {
            pb.environment().put("QUARKUS_HTTP_SSL_PORT", Integer.toString(tlsPort));
        } else if (!tls && port != DOC_PORT) {
            pb.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
        }
        Path log = WORK.resolve(".out/" + id + ".log");
        Process p = pb.redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        servers.add(p);
        String listening = "Listening on: " + (tls ? "https" : "http") + "://0.0.0.0:" + listen;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (true) {
            String output = Files.readString(log);
            if (!p.isAlive()) {
                throw new AssertionError(b.where() + " " + id + " exited with status " + p.exitValue()
                        + " before it listened:\n" + output);
            }
            if (output.contains(listening) && accepts(listen)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(b.where() + " " + id + " did not print '" + listening + "' within "
                        + START_SECONDS + " s:\n" + output);
            }
            Thread.sleep(100);
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void stopServers() throws InterruptedException {
        for (Process p : servers) {
            kill(p);
        }
        servers.clear();
    }

    private static void kill(Process p) throws InterruptedException {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
    }

    @AfterAll
    void stopWhatIsLeft() throws InterruptedException {
        stopServers();
    }

    // ------------------------------------------------------------------------------------------------ the Java client

    /**
     * The grpc.md client: its import lines above a class, the rest as the body of {@code main}; compiled against the
     * test classpath (the generated {@code dev.muster.grpc.v1} classes, grpc-java, protobuf-java-util) and run in a
     * JVM of its own in the work folder.
     */
    private void compileAndRunJava() throws Exception {
        Block b = block("grpc-java");
        String text = withPorts(b.text());
        String imports = text.lines().filter(l -> l.startsWith("import ")).collect(Collectors.joining("\n"));
        String body = text.lines().filter(l -> !l.startsWith("import ")).collect(Collectors.joining("\n        "));
        String source = imports + "\n\npublic class DocsGrpcClient {\n    public static void main(String[] args) throws"
                + " Exception {\n        " + body + "\n    }\n}\n";
        Path dir = WORK.resolve(".java");
        Files.createDirectories(dir);
        Path file = dir.resolve("DocsGrpcClient.java");
        Files.writeString(file, source);
        String classpath = System.getProperty("java.class.path");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac).as("a JDK's compiler").isNotNull();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = javac.run(null, diagnostics, diagnostics, "-proc:none", "-d", dir.toString(),
                "-cp", classpath, file.toString());
        assertThat(status).as(b.where() + " compiles:\n" + diagnostics.toString(StandardCharsets.UTF_8) + "\n" + source)
                .isZero();
        String java = ProcessHandle.current().info().command().orElse("java");
        Result r = exec("grpc-java", List.of(java, "-cp", dir + File.pathSeparator + classpath, "DocsGrpcClient"));
        results.put("grpc-java", r);
        assertThat(r.status()).as(r.describe()).isZero();
        assertThat(r.out()).as(r.describe()).startsWith("training-job-workers-pg Scheduled [");
        assertThat(r.out()).as("four placements printed: " + r.out()).containsPattern(
                "(?s)(node: \"[^\"]+\".*){4}");
    }

    // ------------------------------------------------------------------------------------------------ set-up

    /** The tools the commands use, each with the Debian package that has it. */
    private static final Map<String, String> TOOLS = new LinkedHashMap<>();

    static {
        TOOLS.put("bash", "bash");
        TOOLS.put("sh", "dash");
        TOOLS.put("curl", "curl");
        TOOLS.put("openssl", "openssl");
        TOOLS.put("xxd", "xxd");
        TOOLS.put("protoc", "protobuf-compiler");
        TOOLS.put("stat", "coreutils");
        TOOLS.put("diff", "diffutils");
        TOOLS.put("grep", "grep");
    }

    private static void requireTools() {
        List<String> missing = new ArrayList<>();
        String[] path = System.getenv().getOrDefault("PATH", "").split(File.pathSeparator);
        TOOLS.forEach((tool, pkg) -> {
            boolean found = Stream.of(path).anyMatch(dir -> Files.isExecutable(Path.of(dir, tool)));
            if (!found) {
                missing.add(tool + " (Debian package " + pkg + ")");
            }
        });
        assertThat(missing).as("the documentation's commands need these tools; install them (.ci/run does) "
                + "or the check fails").isEmpty();
    }

    private static void prepareWorkDir() throws IOException {
        if (Files.exists(WORK)) {
            try (Stream<Path> all = Files.walk(WORK)) { // does not follow the links
                all.sorted(Comparator.reverseOrder()).forEach(p -> {
                    try {
                        Files.delete(p);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
        Files.createDirectories(WORK.resolve(".out"));
        try (Stream<Path> entries = Files.list(ROOT)) {
            for (Path entry : entries.filter(e -> !e.getFileName().toString().startsWith(".")).toList()) {
                Files.createSymbolicLink(WORK.resolve(entry.getFileName()), entry);
            }
        }
        Path bin = Files.createDirectories(WORK.resolve(".bin"));
        Path mvn = bin.resolve("mvn");
        Files.writeString(mvn, """
                #!/bin/sh
                # Stands in for Maven in the documentation's commands: the build running them packaged the jar.
                case " $* " in *" package "*) exit 0 ;; esac
                echo "mvn stand-in: a checked command may only package, not run: mvn $*" >&2
                exit 1
                """);
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** The documented port when nothing listens there, else a free one. */
    private static int portFor(int documented) throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(documented));
            return documented;
        } catch (IOException busy) {
            try (ServerSocket s = new ServerSocket(0)) {
                return s.getLocalPort();
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ answers

    private static JsonNode json(Result r) {
        try {
            return JSON.readTree(r.out());
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + r.describe(), e);
        }
    }

    private static JsonNode decisionOf(JsonNode answer, String kind, String namespace, String name) {
        for (JsonNode d : answer.path("decisions")) {
            JsonNode ref = d.path(kind);
            if (namespace.equals(ref.path("namespace").asText()) && name.equals(ref.path("name").asText())) {
                return d;
            }
        }
        throw new AssertionError("no decision for " + kind + " " + namespace + "/" + name + " in " + answer);
    }
}
