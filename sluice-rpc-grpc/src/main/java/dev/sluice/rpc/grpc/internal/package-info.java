/** The bridge's machinery: call listeners, flow control, marshallers, status and header mapping. */
package dev.sluice.rpc.grpc.internal;
