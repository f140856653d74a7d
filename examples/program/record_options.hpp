// The command-line options that choose what a run records (SimulationOptions::record_*), for
// the example programs and any program built on their command line:
//   --columns LIST   names or globs, comma-separated: 'w*,tau', 'der(*)'
//   --kinds LIST     whole kinds, comma-separated: states, derivatives, outputs
//   --rows WHICH     all (the output grid, default), events (t0, both limits at every event,
//                    the last row), every:K (every K-th output point and all event rows)
// and the list of --output-times (times, comma-separated: '0.5,1,2.5').
// Each parser returns an error text naming the bad part, empty when the text is good, so it
// serves as a CLI11 check and as a plain function.
#pragma once

#include <string>
#include <vector>

#include "hdae/options.hpp"
#include "hdae/result.hpp"

namespace hdae::examples {

/// Splits "a,b" into names; an empty name ("a,,b", a trailing comma) is an error.
[[nodiscard]] std::string parse_column_list(const std::string& text,
                                            std::vector<std::string>& columns);
/// "states,outputs" into kinds (singular forms too: "state").
[[nodiscard]] std::string parse_kind_list(const std::string& text, std::vector<ColumnKind>& kinds);
/// "0.5,1,2.5" into times (each read completely by std::from_chars); an empty item is an
/// error. The order and the range are SimulationOptions::validate's business.
[[nodiscard]] std::string parse_time_list(const std::string& text, std::vector<double>& times);
/// parse_time_list, or for "@FILE" the times in FILE: separated by commas, blanks or lines,
/// '#' to the end of a line a comment; the error names the file.
[[nodiscard]] std::string parse_time_argument(const std::string& text, std::vector<double>& times);
/// "all", "events" or "every:K" (K a positive integer) into record_rows and record_every.
[[nodiscard]] std::string parse_row_selection(const std::string& text, SimulationOptions& options);

}  // namespace hdae::examples
