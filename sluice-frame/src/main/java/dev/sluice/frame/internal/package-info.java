/**
 * Machinery shared by the frame codecs: the argument checks of the encoders and the copy of small payload regions
 * into a frame. Not an API: anything here may change without notice.
 */
package dev.sluice.frame.internal;
