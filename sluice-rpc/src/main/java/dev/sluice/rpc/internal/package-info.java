/** The machinery of sluice-rpc: message coding over Netty buffers, the route table and the metadata reader. */
package dev.sluice.rpc.internal;
