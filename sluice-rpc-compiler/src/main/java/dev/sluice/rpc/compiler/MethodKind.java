package dev.sluice.rpc.compiler;

/**
 * How a method is called, decided from its streaming flags and the {@code (sluice.rpc.fire_and_forget)} option; it
 * picks the generated signature and the RSocket interaction (see {@code docs/rpc.md}).
 */
enum MethodKind {
    /** {@code Mono<Resp> m(Req)}: REQUEST_RESPONSE. */
    UNARY("UNARY", "unary"),
    /** {@code Mono<Void> m(Req)}, the response being {@code google.protobuf.Empty}: REQUEST_FNF. */
    FIRE_AND_FORGET("FIRE_AND_FORGET", "fireAndForget"),
    /** {@code Flux<Resp> m(Req)}: REQUEST_STREAM. */
    SERVER_STREAMING("SERVER_STREAMING", "serverStreaming"),
    /** {@code Mono<Resp> m(Flux<Req>)}: REQUEST_CHANNEL. */
    CLIENT_STREAMING("CLIENT_STREAMING", "clientStreaming"),
    /** {@code Flux<Resp> m(Flux<Req>)}: REQUEST_CHANNEL. */
    BIDI_STREAMING("BIDI_STREAMING", "bidiStreaming");

    /** The constant of the runtime's {@code RpcMethod.Kind}. */
    final String runtimeConstant;
    /** The name of the runtime's {@code RpcService.Builder} method and {@code RpcRequester} method. */
    final String callName;

    MethodKind(String runtimeConstant, String callName) {
        this.runtimeConstant = runtimeConstant;
        this.callName = callName;
    }

    /** Whether the generated method takes a {@code Flux} of requests. */
    boolean streamsRequests() {
        return this == CLIENT_STREAMING || this == BIDI_STREAMING;
    }

    /** Whether the generated method returns a {@code Flux} of responses. */
    boolean streamsResponses() {
        return this == SERVER_STREAMING || this == BIDI_STREAMING;
    }
}
