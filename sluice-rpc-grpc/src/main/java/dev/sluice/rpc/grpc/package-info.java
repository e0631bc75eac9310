/**
 * gRPC for Sluice RPC services: {@link dev.sluice.rpc.grpc.GrpcBridge} serves an implementation bound for
 * {@code dev.sluice.rpc.RpcRouter} to gRPC clients on grpc-java's own server, so one implementation answers both
 * protocols. The mapping is in {@code docs/grpc.md}.
 */
package dev.sluice.rpc.grpc;
