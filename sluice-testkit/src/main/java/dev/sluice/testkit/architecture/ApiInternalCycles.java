package dev.sluice.testkit.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.PackageMatcher;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An ArchUnit condition that fails on a class-level dependency cycle running between an API package and an
 * internal package: an API class uses an internal class that uses the API class again, directly or through a
 * longer chain. Such a pair cannot be changed apart, so the internal class is not really internal.
 *
 * <p>Cycles within the API, or within the internal packages, are not this rule's business; package-level cycles
 * are expected (internal code implements API interfaces, API factories call internal code). A class and its
 * nested, local and anonymous classes count as one, the unit a reader sees and moves.
 *
 * <p>The graph is built once in {@link #init} over all classes under test and its strongly connected components
 * found in {@link #finish}: a component holding both an API and an internal class is one violation, reported with
 * one concrete cycle and the line of each use. A component contained in a tolerated cycle (see the constructor)
 * passes; a tolerated cycle whose classes are all present but no longer cycle is itself reported, so that the
 * exception is removed once the cycle is broken.
 *
 * <p>Compile-time constants ({@code static final} primitives and strings) are inlined by javac and leave no trace
 * in the class file, so a use of one is invisible here.
 */
final class ApiInternalCycles extends ArchCondition<JavaClass> {

    private static final PackageMatcher INTERNAL = PackageMatcher.of("..internal..");

    private final List<Set<String>> tolerated;
    /** Top-level class -> top-level classes under test it uses -> one such use, as evidence. */
    private final Map<String, Map<String, Dependency>> uses = new TreeMap<>();

    /**
     * @param tolerated known cycles that pass for now, each the set of top-level class names it may span
     */
    ApiInternalCycles(List<Set<String>> tolerated) {
        super("not be in a dependency cycle between an API package and an internal package");
        this.tolerated = List.copyOf(tolerated);
    }

    @Override
    public void init(Collection<JavaClass> all) {
        uses.clear();
        for (JavaClass c : all) {
            uses.putIfAbsent(topLevel(c).getName(), new TreeMap<>());
        }
        for (JavaClass c : all) {
            String from = topLevel(c).getName();
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String to = topLevel(d.getTargetClass().getBaseComponentType()).getName();
                if (!to.equals(from) && uses.containsKey(to)) {
                    // Prefer a use with a source line (a call, a field access) to one in a signature (line 0).
                    uses.get(from).merge(to, d, (kept, other) -> line(kept) == 0 && line(other) > 0 ? other : kept);
                }
            }
        }
    }

    @Override
    public void check(JavaClass c, ConditionEvents events) {
        // A cycle is a property of the whole graph, known only in finish().
    }

    @Override
    public void finish(ConditionEvents events) {
        List<Set<String>> unmatched = new ArrayList<>();
        for (Set<String> t : tolerated) {
            if (uses.keySet().containsAll(t)) {
                unmatched.add(t);
            }
        }
        for (Set<String> component : components()) {
            if (!mixesApiAndInternal(component)) {
                continue;
            }
            Set<String> excuse = tolerated.stream().filter(t -> t.containsAll(component)).findFirst().orElse(null);
            if (excuse != null) {
                unmatched.remove(excuse);
            } else {
                events.add(SimpleConditionEvent.violated(component, describe(component)));
            }
        }
        for (Set<String> t : unmatched) {
            events.add(SimpleConditionEvent.violated(t, "tolerated cycle " + t + " no longer exists: remove it from"
                + " the tolerated cycles"));
        }
    }

    private static JavaClass topLevel(JavaClass c) {
        JavaClass t = c;
        while (t.getEnclosingClass().isPresent()) {
            t = t.getEnclosingClass().get();
        }
        return t;
    }

    private static int line(Dependency d) {
        return d.getSourceCodeLocation().getLineNumber();
    }

    private static boolean isInternal(String className) {
        int dot = className.lastIndexOf('.');
        return INTERNAL.matches(dot < 0 ? "" : className.substring(0, dot));
    }

    private static boolean mixesApiAndInternal(Set<String> component) {
        boolean api = false;
        boolean internal = false;
        for (String c : component) {
            if (isInternal(c)) {
                internal = true;
            } else {
                api = true;
            }
        }
        return api && internal;
    }

    /**
     * One concrete cycle of {@code component}: from the first API class that uses an internal class of the
     * component, to that class, and by a shortest path back; then every use on it, with its source line.
     */
    private String describe(Set<String> component) {
        String api = null;
        String internal = null;
        for (String c : component) {
            if (api == null && !isInternal(c)) {
                for (String target : uses.get(c).keySet()) {
                    if (component.contains(target) && isInternal(target)) {
                        api = c;
                        internal = target;
                        break;
                    }
                }
            }
        }
        List<String> cycle = new ArrayList<>();
        cycle.add(api);
        cycle.addAll(shortestPath(internal, api, component));
        StringBuilder s = new StringBuilder("dependency cycle between API and internal classes: ")
            .append(String.join(" -> ", cycle));
        if (component.size() > cycle.size() - 1) {
            s.append(" (").append(component.size()).append(" classes in this cycle: ").append(component).append(')');
        }
        for (int i = 0; i + 1 < cycle.size(); i++) {
            s.append(System.lineSeparator()).append("    ")
                .append(uses.get(cycle.get(i)).get(cycle.get(i + 1)).getDescription());
        }
        return s.toString();
    }

    /** The shortest path from {@code from} to {@code to} within {@code component}, both ends included. */
    private List<String> shortestPath(String from, String to, Set<String> component) {
        Map<String, String> previous = new HashMap<>();
        ArrayDeque<String> queue = new ArrayDeque<>();
        previous.put(from, from);
        queue.add(from);
        while (!queue.isEmpty() && !previous.containsKey(to)) {
            String c = queue.poll();
            for (String next : uses.get(c).keySet()) {
                if (component.contains(next) && previous.putIfAbsent(next, c) == null) {
                    queue.add(next);
                }
            }
        }
        List<String> path = new ArrayList<>();
        for (String c = to; !c.equals(from); c = previous.get(c)) {
            path.add(0, c);
        }
        path.add(0, from);
        return path;
    }

    /** The strongly connected components of more than one class (Tarjan's algorithm), each sorted by name. */
    private List<Set<String>> components() {
        Tarjan t = new Tarjan();
        for (String c : uses.keySet()) {
            if (!t.index.containsKey(c)) {
                t.visit(c);
            }
        }
        return t.found;
    }

    private final class Tarjan {
        final Map<String, Integer> index = new HashMap<>();
        final Map<String, Integer> low = new HashMap<>();
        final ArrayDeque<String> stack = new ArrayDeque<>();
        final Set<String> onStack = new TreeSet<>();
        final List<Set<String>> found = new ArrayList<>();

        void visit(String c) {
            index.put(c, index.size());
            low.put(c, index.get(c));
            stack.push(c);
            onStack.add(c);
            for (String next : uses.get(c).keySet()) {
                if (!index.containsKey(next)) {
                    visit(next);
                    low.put(c, Math.min(low.get(c), low.get(next)));
                } else if (onStack.contains(next)) {
                    low.put(c, Math.min(low.get(c), index.get(next)));
                }
            }
            if (low.get(c).equals(index.get(c))) {
                Set<String> component = new TreeSet<>();
                String member;
                do {
                    member = stack.pop();
                    onStack.remove(member);
                    component.add(member);
                } while (!member.equals(c));
                if (component.size() > 1) {
                    found.add(component);
                }
            }
        }
    }
}
