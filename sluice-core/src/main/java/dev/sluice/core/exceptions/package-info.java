/**
 * RSocket ERROR frames as exceptions, one class per error code of the spec: what a failed request or connection
 * signals. {@link dev.sluice.core.exceptions.RSocketErrorException} is the common type and carries the code;
 * {@link dev.sluice.core.exceptions.RejectedException} ({@code REJECTED}) is what a lease or a rate limit refusing a
 * request looks like to its requester; {@link dev.sluice.core.exceptions.CustomRSocketException} covers the
 * application's own codes. A handler may also signal any of them to send that code to the peer.
 */
package dev.sluice.core.exceptions;
