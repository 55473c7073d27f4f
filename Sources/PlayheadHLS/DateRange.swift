import Foundation

/// `EXT-X-DATERANGE`: metadata attached to a range of program date-times (ad breaks, chapters, SCTE-35 signals).
/// A value type, safe from any thread.
public struct DateRange: Sendable, Hashable, Codable {
    /// `ID`.
    public var id: String
    /// `CLASS`.
    public var dateRangeClass: String?
    /// `START-DATE`.
    public var startDate: Date?
    /// `CUE` (`PRE`, `POST`, `ONCE`), split on commas.
    public var cue: [String]?
    /// `END-DATE`.
    public var endDate: Date?
    /// `DURATION` in seconds.
    public var duration: Double?
    /// `PLANNED-DURATION` in seconds.
    public var plannedDuration: Double?
    /// `END-ON-NEXT=YES`.
    public var endOnNext: Bool
    /// `SCTE35-CMD` bytes.
    public var scte35Command: [UInt8]?
    /// `SCTE35-OUT` bytes.
    public var scte35Out: [UInt8]?
    /// `SCTE35-IN` bytes.
    public var scte35In: [UInt8]?
    /// Client-defined `X-...` attributes, in order, as written.
    public var clientAttributes: AttributeList
    /// Other attributes this parser does not interpret.
    public var unknownAttributes: AttributeList

    /// Creates a date range.
    public init(
        id: String, dateRangeClass: String? = nil, startDate: Date? = nil, cue: [String]? = nil, endDate: Date? = nil,
        duration: Double? = nil, plannedDuration: Double? = nil, endOnNext: Bool = false,
        scte35Command: [UInt8]? = nil, scte35Out: [UInt8]? = nil, scte35In: [UInt8]? = nil,
        clientAttributes: AttributeList = AttributeList(), unknownAttributes: AttributeList = AttributeList()
    ) {
        self.id = id
        self.dateRangeClass = dateRangeClass
        self.startDate = startDate
        self.cue = cue
        self.endDate = endDate
        self.duration = duration
        self.plannedDuration = plannedDuration
        self.endOnNext = endOnNext
        self.scte35Command = scte35Command
        self.scte35Out = scte35Out
        self.scte35In = scte35In
        self.clientAttributes = clientAttributes
        self.unknownAttributes = unknownAttributes
    }

    /// `END-DATE`, or `START-DATE + DURATION` when only the duration is known.
    public var effectiveEndDate: Date? {
        if let endDate { return endDate }
        if let startDate, let duration { return startDate.addingTimeInterval(duration) }
        return nil
    }
}
