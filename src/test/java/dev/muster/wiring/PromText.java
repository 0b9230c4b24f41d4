package dev.muster.wiring;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A minimal reader of the Prometheus text format that /q/metrics serves: samples with their labels. */
record PromText(List<Sample> samples) {
    record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+).*$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    static PromText parse(String text) {
        List<Sample> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                throw new IllegalArgumentException("not a sample line: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            out.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
        }
        return new PromText(out);
    }

    /** The one sample with this name whose labels include {@code labels}; fails when there is none or several. */
    double value(String name, String... labels) {
        List<Sample> found = find(name, labels);
        if (found.size() != 1) {
            throw new AssertionError(found.size() + " samples of " + name + " with " + List.of(labels) + ": " + found);
        }
        return found.get(0).value();
    }

    /** The value, or 0 when the series does not exist yet. */
    double valueOrZero(String name, String... labels) {
        List<Sample> found = find(name, labels);
        return found.isEmpty() ? 0 : value(name, labels);
    }

    List<Sample> find(String name, String... labels) {
        List<Sample> out = new ArrayList<>();
        for (Sample s : samples) {
            if (!s.name().equals(name)) {
                continue;
            }
            boolean all = true;
            for (int i = 0; i < labels.length; i += 2) {
                all &= labels[i + 1].equals(s.labels().get(labels[i]));
            }
            if (all) {
                out.add(s);
            }
        }
        return out;
    }

    /** Every sample name. */
    TreeSet<String> names() {
        TreeSet<String> out = new TreeSet<>();
        for (Sample s : samples) {
            out.add(s.name());
        }
        return out;
    }
}
