import EduGoServerStore

/// A list page's own keys are snake_case already.
extension ListPage: SnakeCaseKeyed where Item: SnakeCaseKeyed {}
