import ArgumentParser
import EduGoSDK
import Foundation

struct CoursesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courses", abstract: "Browse courses.", subcommands: [List.self, Search.self, Show.self])

    struct List: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List courses.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "Only this category.") var category: String?
        var reads: [RefreshJob] { [.courses] }

        func run(in session: CommandSession) async throws {
            try print(try await session.courses.list(category: category), stale: session.stale, options: global)
        }
    }

    struct Search: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "search", abstract: "Search courses (accents and case ignored).")
        @OptionGroup var global: GlobalOptions
        @Argument var query: String
        var reads: [RefreshJob] { [.courses] }

        func run(in session: CommandSession) async throws {
            try print(try await session.courses.search(query), stale: session.stale, options: global)
        }
    }

    struct Show: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one course.")
        @OptionGroup var global: GlobalOptions
        @Argument var id: String
        var reads: [RefreshJob] { [.course(id)] }

        func run(in session: CommandSession) async throws {
            guard let course = try await session.courses.course(id: id) else { throw notCached("course \(id)", stale: session.stale) }
            if global.json {
                Output.json(courseJSON(course.value).merging(Output.staleJSON(session.stale)) { $1 }.merging(["cached_at": Output.iso(course.fetchedAt)]) { $1 })
            } else {
                Output.line("\(course.value.title) [\(course.value.category)] \(course.value.lessonCount) lessons "
                    + Output.freshness(fetchedAt: course.fetchedAt, pending: 0, stale: session.stale))
                if !course.value.description.isEmpty { Output.line(course.value.description) }
            }
        }
    }

    static func print(_ courses: Cached<[Course]>, stale: StaleReason?, options: GlobalOptions) throws {
        try requireCached(courses.fetchedAt, isEmpty: courses.value.isEmpty, stale: stale, what: "courses")
        if options.json {
            Output.json(
                ["items": courses.value.map(courseJSON), "cached_at": Output.iso(courses.fetchedAt)]
                    .merging(Output.staleJSON(stale)) { $1 })
            return
        }
        for course in courses.value {
            Output.line("\(course.id)  \(course.title)  [\(course.category)]")
        }
        Output.line(Output.freshness(fetchedAt: courses.fetchedAt, pending: 0, stale: stale))
    }
}

func courseJSON(_ course: Course) -> [String: Any] {
    ["id": course.id, "title": course.title, "category": course.category, "published": course.published,
     "lesson_count": course.lessonCount, "version": course.version]
}

struct LessonsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lessons", abstract: "A course's lessons.", subcommands: [List.self, LessonsUploadCommand.self],
        defaultSubcommand: List.self)

    struct List: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List a course's lessons.")
        @OptionGroup var global: GlobalOptions
        @Argument var course: String
        var reads: [RefreshJob] { [.lessons(courseID: course)] }

        func run(in session: CommandSession) async throws {
            let lessons = try await session.courses.lessons(courseID: course)
            try requireCached(lessons.fetchedAt, isEmpty: lessons.value.isEmpty, stale: session.stale, what: "lessons")
            if global.json {
                Output.json(
                    ["items": lessons.value.map { ["id": $0.id, "title": $0.title, "order": $0.order, "duration_minutes": $0.durationMinutes] as [String: Any] },
                     "cached_at": Output.iso(lessons.fetchedAt)]
                        .merging(Output.staleJSON(session.stale)) { $1 })
                return
            }
            for lesson in lessons.value { Output.line("\(lesson.order). \(lesson.id)  \(lesson.title) (\(lesson.durationMinutes) min)") }
            Output.line(Output.freshness(fetchedAt: lessons.fetchedAt, pending: 0, stale: session.stale))
        }
    }
}

struct EnrollCommand: SessionCommand {
    static let configuration = CommandConfiguration(commandName: "enroll", abstract: "Enroll in a course.")
    @OptionGroup var global: GlobalOptions
    @Argument var course: String

    func run(in session: CommandSession) async throws {
        try await session.enrollment.enroll(courseID: course)
        try await session.reportWrite()
    }
}

struct ProgressCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "progress", abstract: "Your progress in a course.", subcommands: [Show.self, Set.self])

    struct Show: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show your progress in a course.")
        @OptionGroup var global: GlobalOptions
        @Argument var course: String
        var reads: [RefreshJob] { [.progress(courseID: course)] }

        func run(in session: CommandSession) async throws {
            let progress = try await session.progress.lessons(courseID: course)
            let pending = try await session.engine.outbox.pending().filter {
                $0.resource.type == .progress && $0.resource.courseID == course
            }.count
            try requireCached(progress.fetchedAt, isEmpty: progress.value.isEmpty, stale: session.stale, what: "progress")
            if global.json {
                Output.json(
                    [
                        "course_id": course, "pending_writes": pending, "cached_at": Output.iso(progress.fetchedAt),
                        "lessons": progress.value.map { ["lesson_id": $0.lessonId, "watched_seconds": $0.watchedSeconds, "completed": $0.completed, "version": $0.version] as [String: Any] },
                    ].merging(Output.staleJSON(session.stale)) { $1 })
                return
            }
            for lesson in progress.value {
                Output.line("\(lesson.lessonId)  \(lesson.completed ? "✓ completed" : "  in progress")  \(lesson.watchedSeconds) s")
            }
            Output.line(Output.freshness(fetchedAt: progress.fetchedAt, pending: pending, stale: session.stale))
        }
    }

    struct Set: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Record progress on a lesson.")
        @OptionGroup var global: GlobalOptions
        @Argument var course: String
        @Argument var lesson: String
        @Option(help: "Seconds watched (0...86400).") var watched: Int?
        @Flag(help: "Mark the lesson completed.") var completed = false

        func validate() throws {
            if let watched, !(0...86_400).contains(watched) { throw ValidationError("--watched must be 0...86400") }
            if watched == nil && !completed { throw ValidationError("give --watched and/or --completed") }
        }

        func run(in session: CommandSession) async throws {
            try await session.progress.record(
                courseID: course, lessonID: lesson, watchedSeconds: watched, completed: completed ? true : nil)
            try await session.reportWrite()
        }
    }
}
