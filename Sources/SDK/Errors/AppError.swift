import Foundation

/// The error an app shows: wraps a ``NetworkError`` (or any failure) with a message for people.
public struct AppError: Error, Sendable, Equatable {
    /// The classified failure, for code that decides by case: retry, ask the user to sign in again,
    /// show field errors.
    public let underlying: NetworkError

    /// Wraps an already classified failure.
    public init(_ error: NetworkError) {
        self.underlying = error
    }

    /// Wraps any error, classifying transport failures.
    public init(_ error: any Error) {
        self.underlying = (error as? AppError)?.underlying ?? NetworkError.from(transportError: error)
    }

    /// The HTTP status behind the failure, when there was one.
    public var statusCode: Int? { underlying.statusCode }
    /// Whether trying again later may succeed (offline, timeout, rate limit, server error): when to
    /// offer a Retry button.
    public var isRetryable: Bool { underlying.isRetryable }

    /// A short, user-facing message in Spanish for `es*` locales and English otherwise.
    public func userMessage(locale: Locale = .current) -> String {
        let spanish = locale.identifier.lowercased().hasPrefix("es")
        let (english, español) = Self.messages(for: underlying)
        return spanish ? español : english
    }

    private static func messages(for error: NetworkError) -> (String, String) {
        switch error {
        case .noConnection:
            ("You're offline. We'll sync when you're back.", "Sin conexión. Sincronizaremos cuando vuelvas a estar en línea.")
        case .timeout:
            ("The server took too long to answer. Try again.", "El servidor tardó demasiado en responder. Inténtalo de nuevo.")
        case .unauthorized(let code) where code == "invalid_credentials":
            ("The email or password is incorrect.", "El correo o la contraseña no son correctos.")
        case .unauthorized, .sessionExpired:
            ("Your session has ended. Please sign in again.", "Tu sesión ha terminado. Vuelve a iniciar sesión.")
        case .forbidden(let code) where code == "email_not_verified":
            ("Confirm your email address to continue.", "Confirma tu correo electrónico para continuar.")
        case .forbidden:
            ("You don't have permission to do that.", "No tienes permiso para hacer eso.")
        case .notFound:
            ("We couldn't find what you were looking for.", "No encontramos lo que buscabas.")
        case .conflict:
            ("This was changed somewhere else. Review the latest version.", "Esto cambió en otro lugar. Revisa la versión más reciente.")
        case .rateLimited:
            ("Too many attempts. Wait a moment and try again.", "Demasiados intentos. Espera un momento y vuelve a intentarlo.")
        case .validation:
            ("Some fields need your attention.", "Algunos campos necesitan tu atención.")
        case .rejected(_, let code) where code == "email_taken":
            ("An account with this email already exists.", "Ya existe una cuenta con este correo.")
        case .serverError:
            ("Something went wrong on our side. Try again later.", "Algo salió mal de nuestro lado. Inténtalo más tarde.")
        case .cancelled:
            ("The request was cancelled.", "La solicitud se canceló.")
        case .securityError:
            ("The connection isn't secure, so we stopped.", "La conexión no es segura, así que nos detuvimos.")
        case .pinningFailed:
            (
                "We couldn't verify the server's identity, so nothing was sent. Your changes are kept on this device.",
                "No pudimos verificar la identidad del servidor, así que no se envió nada. Tus cambios se guardan en este dispositivo."
            )
        case .untrustedCertificate:
            (
                "The server's security certificate isn't valid, so we stopped.",
                "El certificado de seguridad del servidor no es válido, así que nos detuvimos."
            )
        case .invalidURL, .decodingError, .encodingError, .rejected, .unknown:
            ("Something unexpected happened. Try again.", "Ocurrió algo inesperado. Inténtalo de nuevo.")
        }
    }
}
