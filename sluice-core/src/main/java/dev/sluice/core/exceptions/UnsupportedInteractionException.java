package dev.sluice.core.exceptions;

/** The handler does not implement this interaction; sent to the requester as ERROR[APPLICATION_ERROR]. */
public final class UnsupportedInteractionException extends ApplicationErrorException {

    public UnsupportedInteractionException(String interaction) {
        super(interaction + " is not supported by this responder");
    }
}
