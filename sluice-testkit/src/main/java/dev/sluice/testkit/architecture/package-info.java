/**
 * The module boundary rules, checked by ArchUnit in every module's test run: no module uses another module's
 * {@code internal} packages, and no class-level dependency cycle runs between an API package and an internal one.
 * Why here and not in {@code module-info.java}: see {@code docs/architecture.md}.
 */
package dev.sluice.testkit.architecture;
