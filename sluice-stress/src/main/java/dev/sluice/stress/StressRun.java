package dev.sluice.stress;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import org.openjdk.jcstress.JCStress;
import org.openjdk.jcstress.Options;
import org.openjdk.jcstress.infra.Status;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.grading.ReportUtils;

/**
 * The command {@code mvn verify} runs the race tests with: jcstress's runner (same options as
 * {@code org.openjdk.jcstress.Main}), then a verdict that exits 1 unless every selected test ran and passed.
 *
 * <p>Why not {@code Main} itself: it does fail (an uncaught AssertionError, exit 1) on a FORBIDDEN outcome or a
 * test error, but it exits 0 when the {@code -t} regexp matches nothing or the run could not start, and it skips a
 * test it cannot run (API_MISMATCH) silently. Each of those would turn the stress tests off without a word.
 *
 * <p>jcstress's own output (probing, progress, result tables) goes to {@code jcstress.log} in the working
 * directory, so that a quiet build stays quiet; the console gets {@code Stress: N passed, M failed} and, on
 * failure, each failure and jcstress's "RUN RESULTS" section with the tables of the failed tests.
 */
public final class StressRun {

    private static final String LOG = "jcstress.log";

    private StressRun() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream console = System.out;
        Path log = Path.of(LOG).toAbsolutePath();
        Options opts = new Options(args);
        SortedSet<String> selected;
        try (PrintStream jcstressOut = new PrintStream(Files.newOutputStream(log), true, StandardCharsets.UTF_8)) {
            // JCStress keeps the System.out it finds when constructed; Options.parse prints too.
            System.setOut(jcstressOut);
            if (!opts.parse()) {
                console.println("Stress: bad jcstress options, see " + log);
                System.exit(2);
            }
            JCStress jcstress = new JCStress(opts);
            selected = jcstress.getTests();
            try {
                jcstress.run();
            } catch (AssertionError e) {
                // jcstress's own verdict ("TEST FAILURES: ..."); the per-test lines below say the same, one a line.
                jcstressOut.println(e.getMessage());
            }
        } finally {
            System.setOut(console);
        }
        List<String> problems = new ArrayList<>();
        if (selected.isEmpty()) {
            problems.add("no jcstress test matches -t " + opts.getTestFilter());
        }
        Map<String, TestResult> results = read(opts.getResultFile());
        int passed = 0;
        for (String test : selected) {
            String problem = problem(test, results.get(test));
            if (problem == null) {
                passed++;
            } else {
                problems.add(problem);
            }
        }
        if (!problems.isEmpty()) {
            printRunResults(log);
            for (String p : problems) {
                System.out.println("STRESS FAILURE: " + p);
            }
        }
        System.out.println("jcstress log: " + log + ", report: " + opts.getResultDest() + "index.html");
        System.out.println("Stress: " + passed + " passed, " + problems.size() + " failed");
        System.exit(problems.isEmpty() ? 0 : 1);
    }

    /** Copies jcstress's "RUN RESULTS" section, up to the list of passing tests, from the log to the console. */
    private static void printRunResults(Path log) throws IOException {
        boolean in = false;
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (line.startsWith("RUN RESULTS:")) {
                in = true;
            } else if (line.startsWith("  All remaining tests:")) {
                return;
            }
            if (in && !line.isBlank() && !line.contains("SLF4J")) {
                System.out.println(line);
            }
        }
    }

    /** The results in jcstress's result file, merged over forks and modes, by test name; empty if none. */
    private static Map<String, TestResult> read(String resultFile) throws Exception {
        Map<String, TestResult> byName = new HashMap<>();
        if (!new File(resultFile).isFile()) {
            return byName;
        }
        InProcessCollector collector = new InProcessCollector();
        DiskReadCollector reader = new DiskReadCollector(resultFile, collector);
        try {
            reader.dump();
        } finally {
            reader.close();
        }
        for (TestResult r : ReportUtils.mergedByName(collector.getTestResults())) {
            byName.put(r.getName(), r);
        }
        return byName;
    }

    /** Why {@code test} failed, or null when it ran and saw no FORBIDDEN outcome. */
    private static String problem(String test, TestResult r) {
        if (r == null) {
            return test + ": no result (the test did not run)";
        }
        if (r.status() != Status.NORMAL) {
            return test + ": " + r.status() + " " + r.getMessages();
        }
        if (!r.grading().isPassed) {
            return test + ": " + String.join("; ", r.grading().failureMessages);
        }
        if (r.getTotalCount() == 0) {
            return test + ": no sample was taken";
        }
        return null;
    }
}
