@testable import DoseCore
import DoseExport
import Foundation
import Testing

/// A medicine named `<b>&"x'</b> #{bad} %{F#f00} $HOME` (and a line break in the bar
/// text) must come out of every renderer as typed, never as markup, tags or variables.
@Suite struct EscapingTests {
    /// The product's hostile snapshot, plus a line break in its bar text: no text dosebar builds has
    /// one today (names refuse control characters), but a renderer must never let one split a bar line.
    let snapshot: Snapshot = {
        var s = Fixtures.hostile
        s.text += "\nsecond line 100%"
        return s
    }()
    let name = Fixtures.hostileName
    /// Shows the hostile name through `{next}` and `{text}` in every template.
    let options = RenderOptions(templates: [
        "text": "{next} | {text}", "waybar": "{next} | {text}", "polybar": "{next} | {text}",
        "tmux": "{next} | {text}", "conky": "{next} | {text}", "i3blocks": "{next} | {text}", "i3blocks_short": "{next}",
    ])

    @Test func everyRendererKeepsTheBarLineOnOneLine() {
        for format in [OutputFormat.text, .waybar, .polybar, .tmux, .json] {
            let out = Exporter(options: options).render(format, snapshot)
            #expect(!out.contains("\n"), "\(format) output spans lines: \(out)")
        }
        // The head line, one line per dose and per as-needed medicine, the 7-day strip.
        #expect(ConkyRenderer.render(snapshot, options: options).split(separator: "\n").count
                == 1 + snapshot.doses.count + snapshot.asNeeded.count + 1)
        #expect(I3blocksRenderer.render(snapshot, options: options).split(separator: "\n", omittingEmptySubsequences: false).count == 3)
    }

    @Test func plainTextShowsTheNameAsTyped() {
        let out = PlainTextRenderer.render(snapshot, options: options)
        #expect(out.hasPrefix(name + " | "))
        #expect(out.hasSuffix(" due second line 100%"), "the line break becomes a space: \(out)")
    }

    @Test func waybarEscapesPangoMarkupInsideValidJSON() throws {
        let out = WaybarRenderer.render(snapshot, options: options)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let text = try #require(object["text"] as? String)
        let escaped = "&lt;b&gt;&amp;&quot;x&#39;&lt;/b&gt; #{bad} %{F#f00} $HOME"
        #expect(text.hasPrefix(escaped + " | "))
        #expect(!text.contains("<") && !text.contains(">") && !text.contains("\""))
        let tooltip = try #require(object["tooltip"] as? String)
        #expect(tooltip.contains(escaped))
        #expect(!tooltip.contains("<b>"))
        #expect(tooltip.contains("\n"), "the tooltip keeps its lines")
        #expect(object["alt"] as? String == "due")
        #expect(object["class"] as? String == "due")
        #expect(object["percentage"] as? Int == 0)
        #expect(Set(object.keys) == ["text", "alt", "tooltip", "class", "percentage"])
    }

    @Test func waybarTemplateMarkupIsKept() {
        let out = WaybarRenderer.render(snapshot, options: RenderOptions(templates: ["waybar": "<b>{next}</b>"]))
        #expect(out.contains("\"text\":\"<b>&lt;b&gt;&amp;"))
    }

    @Test func polybarUserTextCannotOpenATag() {
        let out = PolybarRenderer.render(snapshot, options: options)
        let color = options.color(for: .due)!
        #expect(out.hasPrefix("%{F\(color)}") && out.hasSuffix("%{F-}"))
        // Exactly our two tags; the name's %{F#f00} is broken by a zero-width space.
        #expect(out.components(separatedBy: "%{").count - 1 == 2)
        #expect(out.contains("%\u{200B}{F#f00}"))
        // A value ending in % before a template `{` cannot form a tag either.
        #expect(PolybarRenderer.sanitize("100%") == "100%\u{200B}")
        #expect(PolybarRenderer.sanitize("5% off") == "5% off")
    }

    @Test func tmuxDoublesEveryHashOfUserText() {
        let out = TmuxRenderer.render(snapshot, options: options)
        let color = options.color(for: .due)!
        let prefix = "#[fg=\(color)]", suffix = "#[default]"
        #expect(out.hasPrefix(prefix) && out.hasSuffix(suffix))
        let body = String(out.dropFirst(prefix.count).dropLast(suffix.count))
        // Every # of the body is part of a ## pair: tmux will print them as single #s.
        #expect(!body.replacingOccurrences(of: "##", with: "").contains("#"))
        #expect(body.replacingOccurrences(of: "##", with: "#").hasPrefix(name + " | "))
        #expect(body.contains("##{bad} %{F##f00}"))
    }

    /// Issue 46: a medicine in a cycle gets a line of its own after the doses, its name escaped like theirs.
    @Test func conkyListsEachCycleEscaped() {
        var s = snapshot
        s.cycle = [Snapshot.Cycle(medication: name, phase: .rest, day: 3, length: 7, next: LocalDate("2026-11-29"),
                                  text: name + ": rest day 3 of 7, resumes Sun 29 Nov")]
        let lines = ConkyRenderer.render(s, options: options).split(separator: "\n").map(String.init)
        #expect(lines.count == 1 + s.doses.count + s.asNeeded.count + 1 + 1)
        #expect(lines[lines.count - 2] == "${color}" + ##"<b>&"x'</b> \#{bad} %{F\#f00} $$HOME"## + ": rest day 3 of 7, resumes Sun 29 Nov${color}")
    }

    @Test func conkyEscapesDollarsAndHashesOfUserText() {
        let lines = ConkyRenderer.render(snapshot, options: options).split(separator: "\n").map(String.init)
        let color = options.color(for: .due)!
        let escaped = ##"<b>&"x'</b> \#{bad} %{F\#f00} $$HOME"##
        #expect(lines[0] == "${color \(color)}\(escaped) | 💊 0/2 · \(escaped) due second line 100%${color}")
        #expect(lines[1] == "${color \(color)}09:00 \(escaped) (50% {x} 100%) — due${color}")
        for line in lines {
            // Outside our ${color…} tags, no single $ remains and every # is escaped.
            let inner = line.replacingOccurrences(of: "${color \(color)}", with: "").replacingOccurrences(of: "${color}", with: "")
            #expect(!inner.replacingOccurrences(of: "$$", with: "").contains("$"))
            #expect(!inner.replacingOccurrences(of: ##"\#"##, with: "").contains("#"))
        }
    }

    @Test func i3blocksPutsTheNameOnItsOwnLines() {
        let lines = I3blocksRenderer.render(snapshot, options: options).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix(name + " | "))
        #expect(lines[1] == name[...])
        #expect(lines[2] == options.color(for: .due)![...])
    }

    @Test func jsonKeepsTheNameExactlyAndSlashesUnescaped() throws {
        let out = SnapshotJSON.snapshot(snapshot)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let doses = try #require(object["doses"] as? [[String: Any]])
        #expect(doses[0]["medication"] as? String == name)
        #expect(doses[0]["dose"] as? String == "50% {x} 100%")
        #expect(out.contains("\"group\":\"a/b\""), "NOSLASHESCAPE: / is not escaped")
        #expect(object["text"] as? String == snapshot.text)
    }

    @Test func controlCharactersNeverReachABar() {
        var s = Fixtures.newYork
        s.text = "a\u{1}b\rc\u{2028}d\te"
        for format in [OutputFormat.text, .polybar, .tmux] {
            let out = Exporter().render(format, s)
            #expect(!out.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x2028 }, "\(format): \(out)")
        }
    }
}
