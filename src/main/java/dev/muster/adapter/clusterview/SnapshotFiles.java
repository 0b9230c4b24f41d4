package dev.muster.adapter.clusterview;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.muster.adapter.kube.DecodeException;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeList;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.validation.ValidationLimits;
import org.yaml.snakeyaml.LoaderOptions;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The files of a snapshot: one file, or every {@code *.json}, {@code *.yaml} and {@code *.yml} file of a directory
 * in name order (names starting with {@code .} left out, so editors' and {@code kubectl cp}'s temporary files and a
 * ConfigMap volume's {@code ..data} are not read; symbolic links are followed). Each file is a {@link SnapshotPart};
 * their objects are merged kind by kind into one snapshot, file after file.
 * <p>
 * Limits hold per file and in total: a file over {@code maxFileBytes} is not read, and the merge stops as soon as a
 * kind has more objects than the view's limit for it, before the rest of the files are decoded.
 */
final class SnapshotFiles {
    /** Largest array a JVM allocates: one file is read into one array. */
    static final long MAX_FILE_BYTES = Integer.MAX_VALUE - 8;

    private final Path path;
    private final long maxFileBytes;
    private final ValidationLimits counts;
    private final int readThreads;
    private final KubeCodec codec;
    private final ObjectMapper yaml;

    /**
     * @param maxFileBytes largest file read (at most {@link #MAX_FILE_BYTES})
     * @param codec        parser limits (nesting, string and number length); the document length is
     *                     {@code maxFileBytes}
     * @param counts       the most objects of each kind, all files together
     * @param readThreads  files of a directory read and decoded at once (1 = one after the other)
     */
    SnapshotFiles(Path path, long maxFileBytes, KubeCodec.Limits codec, ValidationLimits counts, int readThreads) {
        if (maxFileBytes < 1 || maxFileBytes > MAX_FILE_BYTES) {
            throw new IllegalArgumentException("the largest snapshot file must be 1 to " + MAX_FILE_BYTES
                    + " bytes (a file is read into one array); split a larger snapshot into several files of a "
                    + "directory");
        }
        if (readThreads < 1) {
            throw new IllegalArgumentException("files read at once must be at least 1, got " + readThreads);
        }
        this.path = path;
        this.maxFileBytes = maxFileBytes;
        this.counts = counts;
        this.readThreads = readThreads;
        KubeCodec.Limits limits = new KubeCodec.Limits(codec.maxNestingDepth(), codec.maxStringLength(),
                codec.maxNumberLength(), maxFileBytes);
        this.codec = new KubeCodec(limits);
        LoaderOptions loader = new LoaderOptions();
        loader.setCodePointLimit((int) maxFileBytes);
        loader.setNestingDepthLimit(limits.maxNestingDepth());
        loader.setMaxAliasesForCollections(50);
        loader.setAllowRecursiveKeys(false);
        this.yaml = new YAMLMapper(YAMLFactory.builder().loaderOptions(loader)
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(limits.maxNestingDepth())
                        .maxStringLength(limits.maxStringLength()).maxNumberLength(limits.maxNumberLength())
                        .maxDocumentLength(maxFileBytes).build())
                .build());
    }

    /** A file as last seen: reread when any of these differs. */
    record Stamp(Path file, long modifiedNanos, long size, Object fileKey) {
        static Stamp of(Path p) throws IOException {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            return new Stamp(p, a.lastModifiedTime().to(TimeUnit.NANOSECONDS), a.size(), a.fileKey());
        }
    }

    boolean isDirectory() {
        return Files.isDirectory(path);
    }

    /**
     * The files of the snapshot as they are now, in the order they are merged: the path itself, or the directory's
     * parts. Throws {@link java.nio.file.NoSuchFileException} when the path does not exist.
     */
    List<Stamp> stamps() throws IOException {
        if (!Files.isDirectory(path)) {
            return List.of(Stamp.of(path));
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(path)) {
            files = s.filter(SnapshotFiles::isPart).sorted().toList();
        }
        List<Stamp> out = new ArrayList<>(files.size());
        for (Path f : files) {
            if (Files.isRegularFile(f)) {
                out.add(Stamp.of(f));
            }
        }
        return out;
    }

    private static boolean isPart(Path p) {
        String name = p.getFileName().toString();
        String lower = name.toLowerCase(Locale.ROOT);
        return !name.startsWith(".") && (lower.endsWith(".json") || isYaml(p));
    }

    private static boolean isYaml(Path p) {
        String lower = p.getFileName().toString().toLowerCase(Locale.ROOT);
        return lower.endsWith(".yaml") || lower.endsWith(".yml");
    }

    /**
     * The snapshot the files hold, merged, with where each object came from. Throws with the file's name and the
     * reason when one file cannot be read or decoded, or the objects exceed a limit. With several read threads, the
     * next files are read and decoded while earlier ones are merged; the merge still goes file after file, so the
     * result, and which problem is reported when several files have one, are those of reading one file at a time.
     *
     * @throws InterruptedException when the calling thread is interrupted while waiting for a file
     */
    Merged read(List<Stamp> files) throws InvalidSnapshotException, InterruptedException {
        if (files.isEmpty()) {
            throw new InvalidSnapshotException("holds no .json, .yaml or .yml file");
        }
        SnapshotKind[] kinds = SnapshotKind.values();
        List<Object>[] merged = newLists(kinds.length);
        List<Origin>[] origins = newLists(kinds.length);
        Map<String, Integer> skipped = new TreeMap<>();
        long bytes = 0;
        try (Ahead ahead = new Ahead(files, Math.min(readThreads, files.size()))) {
            for (int i = 0; i < files.size(); i++) {
                Stamp f = files.get(i);
                String name = nameOf(f);
                SnapshotPart part = ahead.part(i);
                bytes += f.size();
                part.skipped().forEach((k, n) -> skipped.merge(k, n, Integer::sum));
                for (SnapshotKind k : kinds) {
                    List<?> l = part.lists()[k.ordinal()];
                    if (l == null) {
                        continue;
                    }
                    List<Object> into = merged[k.ordinal()];
                    if (into == null) {
                        into = new ArrayList<>(l.size());
                        merged[k.ordinal()] = into;
                        origins[k.ordinal()] = new ArrayList<>();
                    }
                    origins[k.ordinal()].add(new Origin(name, into.size(), part));
                    into.addAll(l);
                    int max = k.limit(counts);
                    if (into.size() > max) {
                        throw new InvalidSnapshotException(name + ": more than " + max + " " + k.field
                                + (isDirectory() ? " in all files" : "") + " (raise " + k.limitProperty()
                                + " to hold more)");
                    }
                }
            }
        }
        return new Merged(SnapshotKind.snapshot(merged), origins, files.size(), bytes, skipped);
    }

    private String nameOf(Stamp f) {
        return isDirectory() ? f.file().getFileName().toString() : f.file().toString();
    }

    /**
     * The files' parts in order, read on {@code threads} threads at most {@code threads} files ahead of the merge
     * (one thread: each read when asked for, on the caller's thread). Closing stops reading ahead and waits for the
     * files being read, so no decoded file outlives the load that asked for it.
     */
    private final class Ahead implements AutoCloseable {
        private final List<Stamp> files;
        private final int threads;
        private final ExecutorService pool;
        private final List<Future<SnapshotPart>> reads = new ArrayList<>();

        Ahead(List<Stamp> files, int threads) {
            this.files = files;
            this.threads = threads;
            if (threads <= 1) {
                this.pool = null;
                return;
            }
            AtomicInteger n = new AtomicInteger();
            this.pool = Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "muster-cluster-view-read-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }

        SnapshotPart part(int i) throws InvalidSnapshotException, InterruptedException {
            if (pool == null) {
                return read(files.get(i), nameOf(files.get(i)));
            }
            while (reads.size() < Math.min(files.size(), i + threads)) {
                Stamp f = files.get(reads.size());
                reads.add(pool.submit(() -> read(f, nameOf(f))));
            }
            Future<SnapshotPart> read = reads.set(i, null); // merged from here on: not kept by this list
            try {
                return read.get();
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof InvalidSnapshotException invalid) {
                    throw invalid;
                }
                if (cause instanceof Error error) {
                    throw error;
                }
                throw new InvalidSnapshotException(nameOf(files.get(i)) + ": cannot read: " + cause);
            }
        }

        @Override
        public void close() {
            if (pool == null) {
                return;
            }
            pool.shutdownNow(); // files not started are dropped; a decode runs to its end
            try {
                pool.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T>[] newLists(int n) {
        return (List<T>[]) new List<?>[n];
    }

    private SnapshotPart read(Stamp f, String name) throws InvalidSnapshotException {
        if (f.size() > maxFileBytes) {
            throw new InvalidSnapshotException(name + ": " + f.size() + " bytes, over the limit of " + maxFileBytes
                    + " per file (muster.cluster-view.file-max-size): split it into several files of a directory, "
                    + "or raise the limit");
        }
        byte[] body;
        try (SeekableByteChannel in = Files.newByteChannel(f.file())) {
            long size = in.size();
            if (size > maxFileBytes) {
                throw new InvalidSnapshotException(name + ": grew over the limit of " + maxFileBytes
                        + " bytes per file (muster.cluster-view.file-max-size) while being read");
            }
            // as long as it was when opened: a file still being written fails to decode, and its new stamp
            // brings it back at the next check
            body = new byte[(int) size];
            ByteBuffer b = ByteBuffer.wrap(body);
            while (b.hasRemaining() && in.read(b) >= 0) {
                // until full or at the end
            }
            if (b.hasRemaining()) {
                body = java.util.Arrays.copyOf(body, b.position());
            }
        } catch (IOException e) {
            throw new InvalidSnapshotException(name + ": cannot read: " + e);
        }
        try {
            if (isYaml(f.file())) {
                JsonNode tree = yaml.readTree(body);
                body = JsonMapper.builder().build().writeValueAsBytes(tree);
            }
            // kubectl's output of nodes, pods and slices on the byte path; any other file, and every error, Jackson's
            KubeList<Object> fast = codec.readKubectlList(body, SnapshotFiles::skipped);
            return SnapshotPart.of(fast != null ? SnapshotPart.Document.ofList(fast.kind(), fast)
                    : codec.readJson(body, SnapshotPart.Document.class));
        } catch (DecodeException e) {
            throw new InvalidSnapshotException(name + ": " + e.getMessage());
        } catch (InvalidSnapshotException e) {
            throw new InvalidSnapshotException(name + ": " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            throw new InvalidSnapshotException(name + (isYaml(f.file()) ? ": not a YAML document: "
                    : ": cannot decode: ") + e.getMessage());
        }
    }

    /** The marker of a list item of a kind no snapshot holds; null for the kinds it does. */
    private static Object skipped(String kind) {
        return SnapshotKind.ofKind(kind) == null ? new SnapshotPart.Skipped(kind) : null;
    }

    /** Objects {@code start...} of a kind's merged list came from {@code part}, read from the file {@code name}. */
    record Origin(String name, int start, SnapshotPart part) {
    }

    /**
     * The merged snapshot (each list null when no file mentions its kind).
     *
     * @param skipped items of kinds a snapshot does not hold, by kind
     */
    record Merged(RequestDocument.Snapshot snapshot, List<Origin>[] origins, int files, long bytes,
                  Map<String, Integer> skipped) {
        private static final Pattern INDEXED = Pattern.compile("^snapshot\\.([A-Za-z]+)\\[(\\d+)\\](.*)$",
                Pattern.DOTALL);

        /**
         * A validation path of the merged snapshot ({@code snapshot.pods[1234].metadata.name}) as the file and place
         * the object came from ({@code pods-b.json: items[34].metadata.name}); other paths as they are.
         */
        String where(String field) {
            Matcher m = field == null ? null : INDEXED.matcher(field);
            if (m == null || !m.matches()) {
                return field;
            }
            for (SnapshotKind k : SnapshotKind.values()) {
                if (k.field.equals(m.group(1)) && origins[k.ordinal()] != null) {
                    int i;
                    try {
                        i = Integer.parseInt(m.group(2));
                    } catch (NumberFormatException e) {
                        return field;
                    }
                    Origin at = null;
                    for (Origin o : origins[k.ordinal()]) {
                        if (o.start() <= i) {
                            at = o;
                        }
                    }
                    return at == null ? field : at.name() + ": " + at.part().where(k, i - at.start()) + m.group(3);
                }
            }
            return field;
        }
    }
}
