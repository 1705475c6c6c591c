// DoseExport: renderers and the shared-directory writer.
