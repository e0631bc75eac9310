/**
 * Machinery shared by the frame codecs: argument checks, the payload-frame writer. Not an API:
 * anything here may change without notice.
 */
package dev.sluice.frame.internal;
