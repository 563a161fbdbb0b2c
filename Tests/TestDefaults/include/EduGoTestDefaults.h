// EduGoTestDefaults has no API: linked into the test process, it sets the default
// parallelization width when the process loads (see TestDefaults.c).
