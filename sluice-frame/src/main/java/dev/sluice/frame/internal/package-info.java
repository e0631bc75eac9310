/**
 * Machinery shared by the frame codecs: the argument checks of the encoders. Not an API:
 * anything here may change without notice.
 */
package dev.sluice.frame.internal;
