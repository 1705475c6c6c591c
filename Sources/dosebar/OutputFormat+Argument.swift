import ArgumentParser
import DoseExport

/// `--format` of `status` takes every output format; help and completion list them.
extension OutputFormat: ExpressibleByArgument {}
