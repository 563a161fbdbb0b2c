/// The version of `edugo-server`: the version of the EduGo API it implements (`info.version` of
/// openapi.yaml), reported by `GET /__dev/server`.
public enum ServerVersion {
    /// `major.minor.patch`.
    public static let current = "1.0.0"
}
