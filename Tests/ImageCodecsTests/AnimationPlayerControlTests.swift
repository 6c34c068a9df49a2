@testable import ImageCodecs
import TestSupport
import Testing

/// The player's YYAnimatedImageView controls: waiting on late frames, seek and reset, purge and
/// a settable budget, and the stream of frame changes. Times are chosen, never measured; the
/// decoding thread is awaited with AnimationPlayerTests.eventually.
@Suite(.serialized) struct AnimationPlayerControlTests {
    typealias T = AnimationPlayerTests
    static let gif = "gif/im-anim-global-20x12.gif"

    /// Far past every frame's end: a skipping player would pass over frames here.
    static let late = Duration.seconds(3600)

    /// With `skipsLateFrames` off, a call long after the next frame was due shows that frame
    /// (not the one the clock says), and each frame in turn: nothing is dropped.
    @Test func waitingModeShowsEveryFrameInOrder() async throws {
        let source = ImageSource(bytes: try T.fixture(Self.gif))
        let count = source.count
        let player = AnimationPlayer(source: source, bufferBudget: 0, loops: 1)
        player.skipsLateFrames = false
        #expect(await T.start(player, buffered: 1))
        var time = Duration.zero
        for expected in 1..<count {
            #expect(await T.eventually { player.bufferedFrames.contains(expected) })
            time += Self.late
            #expect(player.frame(at: time)?.index == expected, "frame \(expected)")
        }
        #expect(player.framesDropped == 0 && player.framesShown == count)
    }

    /// The same calls on a skipping player drop the frames in between.
    @Test func skippingModeDropsThem() async throws {
        let source = ImageSource(bytes: try T.fixture(Self.gif))
        let player = AnimationPlayer(source: source, bufferBudget: 0, loops: 1)
        #expect(player.skipsLateFrames)
        #expect(await T.start(player, buffered: 1))
        #expect(await T.eventually { player.bufferedFrames.contains(1) })
        _ = player.frame(at: Self.late)
        #expect(player.framesDropped > 0)
    }

    /// A waited-for frame lasts its whole duration from when it went up.
    @Test func waitedFrameKeepsItsDuration() async throws {
        let source = ImageSource(bytes: try T.fixture(Self.gif))
        let durations = T.durations(source)
        let player = AnimationPlayer(source: source, bufferBudget: 0, loops: 1)
        player.skipsLateFrames = false
        #expect(await T.start(player, buffered: 1))
        #expect(await T.eventually { player.bufferedFrames.contains(1) })
        #expect(player.frame(at: Self.late)?.index == 1)
        let shownAt = Self.late
        #expect(player.frame(at: shownAt + .microseconds(durations[1] - 1))?.index == 1)
    }

    @Test func seekAndReset() async throws {
        let source = ImageSource(bytes: try T.fixture(Self.gif))
        let durations = T.durations(source)
        let player = AnimationPlayer(source: source, bufferBudget: T.large)
        #expect(await T.start(player, buffered: durations.count))
        #expect(!player.seek(to: durations.count) && !player.seek(to: -1))
        try #require(durations.count >= 3)
        #expect(player.seek(to: 1))
        let at = Duration.microseconds(durations[0] / 2)
        #expect(await T.eventually { player.bufferedFrames.contains(1) })
        #expect(player.frame(at: at)?.index == 1)
        #expect(player.frame(at: at + .microseconds(durations[1] + durations[2] / 2))?.index == 2)
        #expect(player.framesDropped == 0)
        player.reset()
        #expect(player.framesShown == 0)
        #expect(await T.eventually { player.bufferedFrames.contains(0) })
        let later = at + .seconds(10)
        #expect(player.frame(at: later)?.index == 0)
        #expect(player.frame(at: later + .microseconds(durations[0] + durations[1] / 2))?.index == 1)
    }

    @Test func purgeAndBudget() async throws {
        let source = ImageSource(bytes: try T.fixture(Self.gif))
        let count = source.count
        let player = AnimationPlayer(source: source, bufferBudget: T.large)
        #expect(await T.start(player, buffered: count))
        let canvas = try source.image(at: 0).pixels.count
        player.bufferBudget = 2 * canvas
        #expect(player.bufferBudget == 2 * canvas)
        #expect(player.bufferedFrames.count <= 2)
        player.purge()
        #expect(await T.eventually { player.bufferedFrames.count == 2 }, "refilled up to the budget")
        #expect(player.frame(at: .zero)?.index == 0, "the frame on show stays")
        player.bufferBudget = -5
        #expect(player.bufferBudget == 0)
    }

    @Test func frameChangesStreamTheIndices() async throws {
        let source = ImageSource(bytes: try T.fixture(Self.gif))
        let durations = T.durations(source)
        let player = AnimationPlayer(source: source, bufferBudget: T.large, loops: 1)
        let changes = player.frameChanges
        #expect(await T.start(player, buffered: durations.count))
        for (time, _) in T.midpoints(durations, loops: 1) { _ = player.frame(at: .microseconds(time)) }
        _ = player.frame(at: .microseconds(durations[durations.count - 1] / 4))   // no change
        var seen: [Int] = []
        for await index in changes {
            seen.append(index)
            if seen.count == durations.count { break }
        }
        #expect(seen == Array(0..<durations.count))
    }
}
