/**
 * The Sluice RPC protoc plugin: {@link dev.sluice.rpc.compiler.SluiceRpcCompiler} reads a
 * {@code CodeGeneratorRequest} and writes, for each {@code service} of the files to generate, a service interface
 * with Reactor types, a client and a binding for the server-side router of {@code sluice-rpc}.
 */
package dev.sluice.rpc.compiler;
