package dev.sluice.cli.proxy;

import java.net.InetAddress;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * Looks up the current addresses of a host name, for {@code dns:NAME:PORT} servers. {@link DnsResolver} asks the
 * DNS servers each time; tests give a map that they change.
 */
@FunctionalInterface
interface Resolver {

    /**
     * Every address {@code name} has now. Must not block the caller: the lookup runs when the {@code Mono} is
     * subscribed, and may answer on another thread. A name without addresses fails, with a message that says why
     * in a few words ("unknown host").
     */
    Mono<List<InetAddress>> resolveAll(String name);
}
