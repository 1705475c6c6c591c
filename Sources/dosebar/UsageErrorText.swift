import ArgumentParser
import DoseApp
import DoseCore
import Foundation

/// A failed command line as one line in dosebar's words and the user's language (issue 24):
/// ArgumentParser's own errors (unknown option or command, missing or bad value, missing argument)
/// reworded, dosebar's English usage lines (`usage.*` in the catalog) translated, and where to read
/// more: `unknown option '--jsn': did you mean '--json'? (see 'dosebar list --help')`.
///
/// ArgumentParser (1.8.2) gives its errors only as English text, so they are recognised by their
/// wording; a message it words differently one day is shown as it is, still on one line.
enum UsageErrorText {
    /// The line for an error ArgumentParser reports (exit 64): reworded, translated, with the help hint.
    static func line(for error: Error, arguments: [String] = CommandLine.arguments,
                     env: [String: String] = ProcessEnvironment.current()) -> String {
        let catalog = catalog(arguments: arguments, env: env)
        let message = Dosebar.message(for: error)
        let words = Array(arguments.dropFirst())
        var help = helpCommand(Dosebar.fullMessage(for: error))
        let text: String
        if let (reworded, parent) = reword(message, arguments: words, catalog: catalog) {
            text = reworded
            if let parent { help = parent + " --help" }
        } else {
            text = translated(oneLine(message), catalog: catalog)
        }
        guard !text.isEmpty else { return "" }
        return catalog.text("usage.see_help", ["message": text, "help": help])
    }

    /// ArgumentParser's message on one line: the values it lists one per line (`  - text`) follow
    /// the first line, separated by commas.
    static func oneLine(_ message: String) -> String {
        let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let first = lines.first else { return "" }
        let rest = lines.dropFirst().map { $0.hasPrefix("- ") ? String($0.dropFirst(2)) : $0 }
        return rest.isEmpty ? first : first + " " + rest.joined(separator: ", ")
    }

    /// A dosebar error's line in the user's language: a line thrown in the catalog's English where no
    /// catalog was at hand (`InputParser`'s `usage.*`, the daemon lock's `daemon.*`) is shown in the
    /// language in force; any other is shown as it is.
    static func line(for error: DosebarError, arguments: [String] = CommandLine.arguments,
                     env: [String: String] = ProcessEnvironment.current()) -> String {
        let text = error.description
        guard englishUsage(text) != nil else { return text }
        return translated(text, catalog: catalog(arguments: arguments, env: env))
    }

    /// The catalog the command would have used: `--lang` if it was given and valid, then the config
    /// file's language, then LC_ALL/LC_MESSAGES/LANG (`AppContext`'s own order, which it decides).
    static func catalog(arguments: [String], env: [String: String]) -> Catalog {
        var lang: Language?, config: String?
        var i = 1
        while i < arguments.count {
            let arg = arguments[i]
            if arg == "--" { break }
            for name in ["--lang", "--config"] {
                var value: String?
                if arg == name, i + 1 < arguments.count { value = arguments[i + 1] }
                if arg.hasPrefix(name + "=") { value = String(arg.dropFirst(name.count + 1)) }
                guard let value else { continue }
                if name == "--lang" { lang = Language(argument: value) ?? lang } else { config = value }
            }
            i += 1
        }
        if let context = try? AppContext(AppOptions(lang: lang, config: config), env: env, configErrors: .useDefaults) {
            return context.catalog
        }
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].compactMap { env[$0] }.first { !$0.isEmpty }
        return lang.map(Catalog.of) ?? Catalog.forLanguage(locale)
    }

    /// `dosebar take --help`: the command whose help ArgumentParser's full message points to.
    static func helpCommand(_ fullMessage: String) -> String {
        guard let see = fullMessage.range(of: "See '"),
              let end = fullMessage[see.upperBound...].range(of: "' for more information") else { return "dosebar --help" }
        return String(fullMessage[see.upperBound..<end.lowerBound])
    }

    /// An English line of the catalog (`usage.*`, `daemon.*`) in `catalog`'s language; any other text as it is.
    static func translated(_ text: String, catalog: Catalog) -> String {
        guard let (key, args) = englishUsage(text) else { return text }
        return catalog.text(key, args)
    }

    /// The `usage.*` or `daemon.*` template of the English catalog `text` was made from, and its arguments.
    static func englishUsage(_ text: String) -> (String, [String: String])? {
        // Not `usage.see_help`, which any line ending in "(see '…')" would match.
        for (key, template) in Catalog.english.templates
        where (key.hasPrefix("usage.") || key.hasPrefix("daemon.")) && key != "usage.see_help" {
            if let args = match(template, text) { return (key, args) }
        }
        return nil
    }

    /// The arguments that fill `template` into `text`, or nil when it does not make `text`.
    static func match(_ template: String, _ text: String) -> [String: String]? {
        // The template as a pattern: its text literally, each `{name}` some text (a name used twice, the same).
        var pattern = "^", names: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<open]))
            let name = String(rest[rest.index(after: open)..<close])
            if let seen = names.firstIndex(of: name) { pattern += "\\\(seen + 1)" } else { names.append(name); pattern += "(.+?)" }
            rest = rest[rest.index(after: close)...]
        }
        pattern += NSRegularExpression.escapedPattern(for: String(rest)) + "$"
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else { return nil }
        let whole = NSRange(text.startIndex..., in: text)
        guard let found = regex.firstMatch(in: text, range: whole) else { return nil }
        var args: [String: String] = [:]
        for (i, name) in names.enumerated() {
            guard let range = Range(found.range(at: i + 1), in: text) else { return nil }
            args[name] = String(text[range])
        }
        return args
    }

    /// ArgumentParser's message in dosebar's words, or nil when it is not one of its known forms; for
    /// an unknown command, also the command it was given to (`dosebar sync`), whose help lists them.
    static func reword(_ message: String, arguments: [String], catalog c: Catalog) -> (String, String?)? {
        guard let text = rewordOption(message, arguments: arguments, catalog: c) else {
            return rewordArgument(message, arguments: arguments, catalog: c)
        }
        return (text, nil)
    }

    private static func quoted(_ s: Substring) -> [String] {
        s.split(separator: "'", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    private static func isNegativeNumber(_ s: String) -> Bool { s.hasPrefix("-") && Double(s.dropFirst()) != nil }

    /// The errors about options: unknown, missing or bad value, a value given to a flag.
    private static func rewordOption(_ message: String, arguments: [String], catalog c: Catalog) -> String? {
        let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = lines.first else { return nil }
        let bullets = lines.dropFirst().filter { $0.hasPrefix("- ") }.map { String($0.dropFirst(2)) }

        if let args = match("Unknown option '{option}'. Did you mean '{suggestion}'?", first) {
            return c.text("usage.unknown_option_suggest", args)
        }
        if let args = match("Unknown option '{option}'", first) {
            return c.text(isNegativeNumber(args["option"]!) ? "usage.negative" : "usage.unknown_option",
                          ["option": args["option"]!, "value": args["option"]!])
        }
        if let args = match("Missing value for '{option}'", first) {
            let parts = args["option"]!.split(separator: " ", maxSplits: 1).map(String.init)
            let option = parts[0]
            // `--stock -5`: ArgumentParser reads the negative number as an option.
            if let at = arguments.firstIndex(of: option), at + 1 < arguments.count, isNegativeNumber(arguments[at + 1]) {
                return c.text("usage.negative_value", ["option": option, "value": arguments[at + 1]])
            }
            return parts.count == 2 ? c.text("usage.missing_value", ["option": option, "value": parts[1]])
                : c.text("usage.missing_value.bare", ["option": option])
        }
        if let args = match("The value '{value}' is invalid for '{option}'{rest}", first)
            ?? match("The value '{value}' is invalid for '{option}'", first) {
            let option = String(args["option"]!.split(separator: " ").first ?? "")
            let value = args["value"]!, rest = args["rest"] ?? ""
            var values = bullets
            if rest.hasPrefix(". Please provide one of ") && !rest.hasSuffix("following:") { values = quoted(Substring(rest)) }
            if !values.isEmpty {
                return c.text("usage.invalid_value", ["option": option, "value": value, "values": values.joined(separator: ", ")])
            }
            if rest.hasPrefix(": ") {
                let reason = String(rest.dropFirst(2))
                // A reason of dosebar's own names the option already (`--stock takes at most two decimals`).
                if englishUsage(reason) != nil { return c.text("usage.value_reason", ["value": value, "reason": translated(reason, catalog: c)]) }
                return c.text("usage.invalid_value.reason", ["option": option, "value": value, "reason": reason])
            }
            // `<N>` is the value name of every whole-number option (--days, --low-days, --max-per-day …).
            let number = args["option"]!.hasSuffix(" <N>") || args["option"]!.hasSuffix(" <n>")
            return c.text(number ? "usage.invalid_number" : "usage.invalid_value.bare", ["option": option, "value": value])
        }
        if let args = match("The option '{option}' does not take any value, but '{value}' was specified.", first) {
            return c.text("usage.takes_no_value", args)
        }
        return nil
    }

    /// The errors about arguments: one too many (or an unknown command), one missing.
    private static func rewordArgument(_ message: String, arguments: [String], catalog c: Catalog) -> (String, String?)? {
        guard let first = message.split(separator: "\n").first.map(String.init) else { return nil }
        if let args = match("Unexpected argument '{value}'", first) {
            let value = args["value"]!
            if isNegativeNumber(value) { return (c.text("usage.negative", ["value": value]), nil) }
            if let parent = unknownCommandParent(value, arguments) { return (c.text("usage.unknown_command", ["value": value]), parent) }
            return (c.text("usage.unexpected", ["value": value]), nil)
        }
        if let args = match("{count} unexpected arguments: {values}", first) {
            let values = quoted(Substring(args["values"]!))
            if let head = values.first, let parent = unknownCommandParent(head, arguments) {
                return (c.text("usage.unknown_command", ["value": head]), parent)
            }
            return (c.text("usage.unexpected_many", ["values": values.map { "'\($0)'" }.joined(separator: ", ")]), nil)
        }
        if let args = match("Missing expected argument '{argument}'", first) { return (c.text("usage.missing_argument", args), nil) }
        if let args = match("Missing one of: {argument}", first) { return (c.text("usage.missing_argument", args), nil) }
        if first == "Missing required subcommand." { return (c.text("usage.missing_command"), nil) }
        return nil
    }

    /// When `word`, an argument ArgumentParser did not expect, stands where a command name goes (the
    /// first word after `dosebar`, or after a command that has commands, `sync …`, that is not an
    /// option): the command it was given to (`dosebar`, `dosebar sync`). Nil otherwise.
    static func unknownCommandParent(_ word: String, _ arguments: [String]) -> String? {
        var command: ParsableCommand.Type = Dosebar.self
        var path = ["dosebar"]
        var skipValue = false
        for arg in arguments {
            if skipValue { skipValue = false; continue }
            if arg.hasPrefix("-") {
                // The global options that take a value, given as two words.
                skipValue = ["--db", "--dir", "--lang", "--config", "--color"].contains(arg)
                continue
            }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            guard let next = subcommands.first(where: { $0._commandName == arg }) else {
                return arg == word ? path.joined(separator: " ") : nil
            }
            command = next
            path.append(arg)
        }
        return nil
    }
}
