import ArgumentParser
import EduGoSDK
import Foundation

/// `edugo download COURSE [--lesson LESSON]`: lesson media kept for offline use.
struct DownloadCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download a course's lesson files (or one lesson's) for offline use, verified by SHA-256.",
        discussion: """
            An interrupted download resumes where it stopped the next time. Lessons without a file are \
            skipped. A progress bar shows on a terminal; --json prints one JSON object per line.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The course id.") var course: String
    @Option(help: "Only this lesson.") var lesson: String?
    @Flag(help: "Keep the files as an evictable cache instead of pinning them.") var cache = false

    func preflight() throws {
        try global.requireServer(for: "download")
    }

    func run(in session: CommandSession) async throws {
        // A one-shot command does not wait for the network: it fails, and running it again resumes.
        let downloads = try session.client.downloads(for: session.sdk, resumeLimit: 0)
        var lessonIDs: [String]
        if let lesson {
            lessonIDs = [lesson]
        } else {
            // Refreshed here, not as `reads`: only without --lesson, and after the downloads are opened.
            let stale = try await session.refresh([.lessons(courseID: course)])
            let lessons = try await session.courses.lessons(courseID: course)
            try requireCached(lessons.fetchedAt, isEmpty: lessons.value.isEmpty, stale: stale, what: "lessons")
            lessonIDs = lessons.value.map(\.id)
        }
        var failures = 0
        for lessonID in lessonIDs {
            do {
                try await download(lessonID, with: downloads)
            } catch DownloadError.refused(status: 404, _) {
                report(["event": "skipped", "lesson_id": lessonID, "reason": "no_media"], text: "\(lessonID): no file")
            } catch {
                failures += 1
                let message = Self.describe(error)
                report(["event": "failed", "lesson_id": lessonID, "error": message], text: "\(lessonID): \(message)", toError: true)
            }
        }
        if failures > 0 { throw CLIError.failed("\(failures) download(s) failed; run the command again to resume") }
    }

    private func download(_ lessonID: String, with downloads: Downloads) async throws {
        let bar = ProgressBar(label: lessonID, enabled: !global.json && ProgressBar.stderrIsTerminal)
        var lastState: DownloadProgress.State?
        var lastReported: Int64 = 0
        for try await progress in await downloads.download(lessonID: lessonID, courseID: course, pinned: !cache) {
            bar.update(progress.bytesReceived, of: progress.totalBytes)
            guard global.json else {
                if case .completed(let url) = progress.state {
                    bar.finish()
                    Output.line("\(lessonID)  \(url.path)  \(progress.bytesReceived) bytes  verified")
                }
                continue
            }
            // JSON lines: every state change, and each further 5% of the file.
            let step = max(1, (progress.totalBytes ?? 0) / 20)
            guard progress.state != lastState || progress.bytesReceived - lastReported >= step else { continue }
            lastState = progress.state
            lastReported = progress.bytesReceived
            var object: [String: Any] = [
                "event": Self.name(progress.state), "lesson_id": lessonID, "bytes_received": progress.bytesReceived,
            ]
            if let total = progress.totalBytes { object["total_bytes"] = total }
            if case .completed(let url) = progress.state { object["path"] = url.path }
            Output.jsonLine(object)
        }
    }

    private func report(_ object: [String: Any], text: String, toError: Bool = false) {
        if global.json {
            Output.jsonLine(object)
        } else if toError {
            Output.error(text)
        } else {
            Output.line(text)
        }
    }

    static func name(_ state: DownloadProgress.State) -> String {
        switch state {
        case .queued: "queued"
        case .downloading: "downloading"
        case .waitingForNetwork: "waiting_for_network"
        case .verifying: "verifying"
        case .completed: "completed"
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DownloadError.checksumMismatch: "the file failed its SHA-256 check and was deleted"
        case DownloadError.interrupted(let bytes): "interrupted after \(bytes) bytes (kept for a resume)"
        case DownloadError.refused(let status, _): "the server refused it (\(status))"
        case let error as DownloadError: "\(error)"
        default: CLIError.from(error).description
        }
    }
}

/// `edugo downloads list|remove|usage`.
struct DownloadsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "downloads", abstract: "The lesson files kept for offline use.",
        subcommands: [List.self, Remove.self, Usage.self], defaultSubcommand: List.self)

    struct List: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the downloaded lesson files.")
        @OptionGroup var global: GlobalOptions

        func run(in session: CommandSession) async throws {
            let downloads = try session.client.downloads(for: session.sdk)
            let files = await downloads.files()
            if global.json {
                Output.json(["items": files.map { file -> [String: Any] in
                    ["lesson_id": file.lessonID, "course_id": file.courseID, "path": file.file.path, "size_bytes": file.size,
                     "sha256": file.sha256, "content_type": file.contentType ?? NSNull(), "pinned": file.pinned]
                }])
                return
            }
            for file in files {
                Output.line("\(file.courseID)  \(file.lessonID)  \(file.size) bytes  \(file.pinned ? "pinned" : "cached")  \(file.file.path)")
            }
            if files.isEmpty { Output.line("no downloads") }
        }
    }

    struct Remove: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a lesson's or a course's files.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The lesson whose file to remove.") var lesson: String?
        @Option(help: "The course whose files to remove.") var course: String?

        func validate() throws {
            guard (lesson == nil) != (course == nil) else { throw ValidationError("name exactly one of --lesson and --course") }
        }

        func run(in session: CommandSession) async throws {
            let downloads = try session.client.downloads(for: session.sdk)
            if let lesson { await downloads.remove(lessonID: lesson) }
            if let course { await downloads.remove(courseID: course) }
            if global.json { Output.json(["removed": true]) } else { Output.line("removed") }
        }
    }

    struct Usage: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "usage", abstract: "Bytes kept, per course and in all.")
        @OptionGroup var global: GlobalOptions

        func run(in session: CommandSession) async throws {
            let downloads = try session.client.downloads(for: session.sdk)
            let usage = await downloads.usage()
            if global.json {
                Output.json(["total_bytes": usage.totalBytes, "pinned_bytes": usage.pinnedBytes, "by_course": usage.bytesByCourse])
                return
            }
            for (course, bytes) in usage.bytesByCourse.sorted(by: { $0.key < $1.key }) { Output.line("\(course)  \(bytes) bytes") }
            Output.line("total \(usage.totalBytes) bytes (\(usage.pinnedBytes) pinned)")
        }
    }
}

/// `edugo lessons upload COURSE LESSON FILE`: a teacher's upload of a lesson's media, streamed.
struct LessonsUploadCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload", abstract: "Upload a file as a lesson's media (the course's teacher or an admin).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The course id.") var course: String
    @Argument(help: "The lesson id.") var lesson: String
    @Argument(help: "The file: .mp4, .mp3, .pdf, .png or .jpg.") var file: String
    @Option(help: "The media type, when the extension does not say it (video/mp4, audio/mpeg, application/pdf, image/png, image/jpeg).")
    var type: String?

    func preflight() throws {
        try global.requireServer(for: "upload")
        _ = try fileToUpload()
    }

    /// The file to upload and its media type.
    ///
    /// - Throws: `ValidationError` when the file cannot be read or its type is unknown.
    private func fileToUpload() throws -> (url: URL, contentType: String) {
        let url = URL(fileURLWithPath: file)
        guard FileManager.default.isReadableFile(atPath: url.path) else { throw ValidationError("cannot read \(file)") }
        guard let contentType = type ?? LessonMediaUploader.contentType(forExtension: url.pathExtension) else {
            throw ValidationError("cannot tell the media type of \(file): pass --type")
        }
        return (url, contentType)
    }

    func run(in session: CommandSession) async throws {
        let (url, contentType) = try fileToUpload()
        let client = session.client
        let current: Lesson = try await client.api.execute(endpoint: .Courses.lesson(course, lesson))
        let bar = ProgressBar(label: url.lastPathComponent, enabled: !global.json && ProgressBar.stderrIsTerminal)
        let media = try await LessonMediaUploader(api: client.api).upload(
            file: url, courseID: course, lessonID: lesson, contentType: contentType, baseVersion: current.version
        ) { sent, total in bar.update(sent, of: total) }
        bar.finish()
        if global.json {
            Output.json([
                "lesson_id": lesson, "version": media.lessonVersion, "content_type": media.contentType,
                "size_bytes": media.sizeBytes, "sha256": media.sha256,
            ])
        } else {
            Output.line("uploaded \(media.sizeBytes) bytes (\(media.contentType)), sha256 \(media.sha256); lesson version \(media.lessonVersion)")
        }
    }
}

/// A one-line progress bar on stderr, redrawn in place (only on a terminal).
final class ProgressBar: Sendable {
    let label: String
    let enabled: Bool

    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    init(label: String, enabled: Bool) {
        self.label = label
        self.enabled = enabled
    }

    func update(_ done: Int64, of total: Int64?) {
        guard enabled else { return }
        let mib = Double(done) / 1_048_576
        guard let total, total > 0 else {
            FileHandle.standardError.write(Data(String(format: "\r%@ %.1f MiB", label, mib).utf8))
            return
        }
        let fraction = min(1, Double(done) / Double(total))
        let filled = Int(fraction * 30)
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
        FileHandle.standardError.write(Data(String(
            format: "\r%@ [%@] %3d%% %.1f/%.1f MiB", label, bar, Int(fraction * 100), mib, Double(total) / 1_048_576).utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
