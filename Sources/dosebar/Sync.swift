import ArgumentParser

/// `dosebar sync`: one history on several machines, through a folder that Syncthing shares.
struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Share one history between machines through a folder that Syncthing syncs.",
        discussion: """
        Each machine appends its own changes to DIR/dosebar/DEVICE.jsonl and applies the other \
        machines' files; Syncthing carries the folder. Until 'sync init', nothing of this happens.

        Examples:
          $ dosebar sync init ~/Sync
          $ dosebar sync status
          $ dosebar sync now
        """,
        subcommands: [SyncInit.self, SyncStatus.self, SyncNow.self]
    )
}
