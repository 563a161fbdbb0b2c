import EduGoSDK
import EduGoTesting
import Foundation

// The README's "Simulate a classroom" example, compiled and run by ReadmeQuickStartTests. Keep
// the two in sync (the test compares them).

// BEGIN SIMULATION QUICK START
func simulateClassrooms() async throws -> [EduGoSimulation.Report] {
    // The app's own operation joins the mix: it gets a device's signed-in session and the run's
    // random numbers (draw from them, never from elsewhere, so a seed replays the run).
    let savePreference = EduGoSimulation.Operation(name: "save a preference", weight: 10) { device, random in
        let notifications = random.chance(0.5)
        try await device.session.preferences.update { $0.notificationsEnabled = notifications }
    }
    var reports: [EduGoSimulation.Report] = []
    for seed in UInt64(1)...3 {
        let options = EduGoSimulation.Options(seed: seed, devices: 3, steps: 30, operations: [savePreference])
        // `violations` names every broken guarantee; printing a report shows its steps and how to replay it.
        reports.append(try await EduGoSimulation.run(options))
    }
    return reports
}
// END SIMULATION QUICK START
