import DoseCore
import Glibc

/// Where a command's doses come from (DESIGN §2): a person at a terminal when its stdin or stderr
/// is one, else a bar click or a script. (stdout alone says nothing: `take | tee` is still typed.)
public enum CommandOrigin {
    public static func current() -> DoseEvent.Origin {
        isatty(STDIN_FILENO) == 1 || isatty(STDERR_FILENO) == 1 ? .terminal : .click
    }
}
