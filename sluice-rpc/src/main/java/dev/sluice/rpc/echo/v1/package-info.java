/**
 * The Echo service of {@code sluice/echo/v1/echo.proto}: its generated interface, client and binding (from the
 * build), and {@link dev.sluice.rpc.echo.v1.RealEchoService}, the implementation that test peers and
 * {@code sluice echo-server} serve.
 */
package dev.sluice.rpc.echo.v1;
