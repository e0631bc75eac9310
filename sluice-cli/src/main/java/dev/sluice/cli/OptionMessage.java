package dev.sluice.cli;

/**
 * The message of a usage error about an option whose value a library rejected. The libraries name the setting as
 * their method does, without dashes ({@code mtu must be 0 (no fragmentation) or between 64 and 16777218, got 10});
 * on the command line it should name the option ({@code --mtu must be ...}). Stateless.
 */
public final class OptionMessage {

    private OptionMessage() {
    }

    /**
     * {@code libraryMessage} about {@code option} (e.g. {@code --mtu}): the option put in place of the setting's
     * name when the message starts with it, else in front of the message.
     */
    public static String of(String option, String libraryMessage) {
        String setting = option.replaceFirst("^-+", "");
        if (libraryMessage != null && libraryMessage.startsWith(setting + " ")) {
            return option + libraryMessage.substring(setting.length());
        }
        return option + ": " + libraryMessage;
    }
}
