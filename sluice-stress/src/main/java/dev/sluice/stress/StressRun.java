package dev.sluice.stress;

import java.io.File;
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
 * <p>The last line printed is {@code Stress: N passed, M failed}.
 */
public final class StressRun {

    private StressRun() {
    }

    public static void main(String[] args) throws Exception {
        Options opts = new Options(args);
        if (!opts.parse()) {
            System.exit(2);
        }
        JCStress jcstress = new JCStress(opts);
        SortedSet<String> selected = jcstress.getTests();
        List<String> problems = new ArrayList<>();
        try {
            jcstress.run();
        } catch (AssertionError e) {
            // jcstress's own verdict ("TEST FAILURES: ..."); the per-test lines below say the same, one a line.
            System.out.println(e.getMessage());
        }
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
        for (String p : problems) {
            System.out.println("STRESS FAILURE: " + p);
        }
        System.out.println("Stress: " + passed + " passed, " + (selected.size() - passed) + " failed");
        System.exit(problems.isEmpty() ? 0 : 1);
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
