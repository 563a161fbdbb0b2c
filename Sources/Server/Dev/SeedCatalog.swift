import EduGoServerStore

/// The demo content: accounts and courses with lessons, in Spanish and English.
enum SeedCatalog {
    struct Account: Sendable {
        var email: String
        var firstName: String
        var lastName: String
        var role: UserRecord.Role

        /// Every seeded account of a role shares the role's published demo password.
        var password: String { SeedCatalog.password(for: role) }
    }

    struct Course: Sendable {
        var title: String
        var description: String
        var category: String
        var teacher: Int
        var published: Bool
        var lessons: [String]
    }

    static func password(for role: UserRecord.Role) -> String {
        switch role {
        case .admin: "Demo-Admin-2026"
        case .teacher: "Demo-Teacher-2026"
        case .student: "Demo-Student-2026"
        }
    }

    static func accounts(domain: String, teachers: Int, students: Int) -> [Account] {
        let teacherNames = [("María", "González"), ("James", "Carter"), ("Lucía", "Fernández")]
        let studentNames = [
            ("Ana", "López"), ("Carlos", "Martínez"), ("Emily", "Johnson"), ("Diego", "Ramírez"),
            ("Sofía", "Hernández"), ("Liam", "Smith"), ("Valentina", "Torres"), ("Noah", "Brown"),
        ]
        var accounts = [Account(email: "admin@\(domain)", firstName: "Laura", lastName: "Admin", role: .admin)]
        for index in 0..<teachers {
            let (first, last) = teacherNames[index % teacherNames.count]
            accounts.append(.init(email: "teacher\(index + 1)@\(domain)", firstName: first, lastName: last, role: .teacher))
        }
        for index in 0..<students {
            let (first, last) = studentNames[index % studentNames.count]
            accounts.append(.init(email: "student\(index + 1)@\(domain)", firstName: first, lastName: last, role: .student))
        }
        return accounts
    }

    static let demoCourses: [Course] = [
        Course(
            title: "Matemáticas básicas", description: "Números, fracciones y proporciones para empezar con buen pie.",
            category: "mathematics", teacher: 0, published: true,
            lessons: ["Números naturales", "Fracciones", "Decimales", "Porcentajes", "Proporciones", "Repaso final"]),
        Course(
            title: "Introduction to Algebra", description: "Variables, equations and functions explained step by step.",
            category: "mathematics", teacher: 1, published: true,
            lessons: ["What is a variable?", "Linear equations", "Inequalities", "Systems of equations", "Functions", "Graphing lines", "Quadratics"]),
        Course(
            title: "Programación con Swift", description: "Aprende Swift desde cero: tipos, funciones, structs y concurrencia.",
            category: "programming", teacher: 0, published: true,
            lessons: ["Hola, Swift", "Tipos y variables", "Funciones", "Structs y clases", "Protocolos", "Errores", "Async/await", "Actores"]),
        Course(
            title: "English for Travellers", description: "Everyday phrases for airports, hotels and restaurants.",
            category: "languages", teacher: 1, published: true,
            lessons: ["At the airport", "Checking in", "Ordering food", "Asking for directions", "Small talk"]),
        Course(
            title: "Historia de América Latina", description: "De las civilizaciones precolombinas a las independencias.",
            category: "history", teacher: 0, published: true,
            lessons: ["Mayas, aztecas e incas", "La conquista", "La colonia", "Las independencias", "El siglo XIX", "Siglo XX"]),
        Course(
            title: "Física: movimiento y energía", description: "Cinemática, leyes de Newton y conservación de la energía.",
            category: "science", teacher: 1, published: true,
            lessons: ["Velocidad y aceleración", "Leyes de Newton", "Trabajo", "Energía", "Conservación", "Problemas resueltos"]),
        Course(
            title: "Digital Illustration", description: "Sketching, colour theory and composition with a tablet.",
            category: "arts", teacher: 1, published: true,
            lessons: ["Tools and brushes", "Line work", "Colour theory", "Light and shadow", "Composition"]),
        Course(
            title: "Emprendimiento digital", description: "Del problema a un producto: validación, métricas y ventas.",
            category: "business", teacher: 0, published: false,
            lessons: ["Encontrar un problema", "Validar la idea", "Prototipo", "Métricas", "Ventas"]),
    ]

    static let acmeCourses: [Course] = [
        Course(
            title: "Onboarding at Acme", description: "Everything a new Acme employee needs in week one.",
            category: "business", teacher: 0, published: true,
            lessons: ["Welcome", "Our products", "Tools we use", "Security basics", "Who to ask"]),
        Course(
            title: "Seguridad de la información", description: "Contraseñas, phishing y buenas prácticas en el trabajo.",
            category: "programming", teacher: 0, published: true,
            lessons: ["Contraseñas seguras", "Phishing", "Dispositivos", "Datos personales", "Incidentes"]),
    ]

    static let devTenantCourses: [Course] = [
        Course(
            title: "Matemáticas para todos", description: "Un curso corto de aritmética y álgebra.",
            category: "mathematics", teacher: 0, published: true,
            lessons: ["Sumas y restas", "Multiplicación", "Ecuaciones", "Problemas", "Examen"]),
        Course(
            title: "Swift Concurrency", description: "Tasks, actors and structured concurrency in practice.",
            category: "programming", teacher: 0, published: true,
            lessons: ["Async functions", "Tasks", "Actors", "Sendable", "Cancellation"]),
        Course(
            title: "Borrador: Química", description: "Curso en preparación.", category: "science", teacher: 0,
            published: false, lessons: ["Átomos", "Enlaces", "Reacciones", "Estequiometría", "Laboratorio"]),
    ]
}
