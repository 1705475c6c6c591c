import DoseCore
import Foundation

/// A fragment of HTML: text and attribute values are escaped when the fragment is built, so a
/// user's string can only ever be text.
struct Markup {
    let html: String

    init(raw: String) { html = raw }

    static func text(_ s: String) -> Markup { Markup(raw: escape(Sanitize.oneLine(s))) }

    /// & < > " ' as entities (for text and for quoted attribute values alike).
    static func escape(_ s: String) -> String { Sanitize.markup(s) }
}

/// Elements with no content and no end tag.
private let voidElements: Set<String> = ["meta", "line"]
/// Elements followed by a line break in the source, so the page reads well as text.
private let blockElements: Set<String> = ["html", "head", "body", "meta", "title", "style", "header", "section", "h1", "h2",
                                          "p", "div", "table", "caption", "thead", "tbody", "tfoot", "tr", "ul", "li", "svg", "g"]

/// `<name attributes>children</name>`; attribute values escaped.
func el(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], _ children: [Markup] = []) -> Markup {
    var s = "<" + name
    for (key, value) in attributes { s += " " + key + "=\"" + Markup.escape(value) + "\"" }
    if voidElements.contains(name) && children.isEmpty {
        s += name == "line" ? "/>" : ">"
    } else {
        s += ">"
        for c in children { s += c.html }
        s += "</" + name + ">"
    }
    if blockElements.contains(name) { s += "\n" }
    return Markup(raw: s)
}

/// An element holding one escaped text.
func el(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], text: String) -> Markup {
    el(name, attributes, [Markup.text(text)])
}
