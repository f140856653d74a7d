// The reference run of an example (reference_run.hpp).
#include "registry/reference_run.hpp"

#include <cstddef>

namespace hdae::examples {

std::unique_ptr<SimulationModel> make_reference_model(const Example& example) {
  return example.make_model(reference_parameters(example));
}

ResultTable keep_columns(const ResultTable& table, const std::vector<std::string>& signals) {
  std::vector<std::size_t> index;
  std::vector<ColumnInfo> columns;
  for (const std::string& name : signals) {
    index.push_back(table.column_index(name));
    columns.push_back(table.columns()[index.back()]);
  }
  ResultTable kept(std::move(columns));
  std::vector<double> values(index.size());
  for (std::size_t i = 0; i < table.num_rows(); ++i) {
    for (std::size_t j = 0; j < index.size(); ++j) values[j] = table.value(i, index[j]);
    kept.append(table.time(i), values);
  }
  return kept;
}

}  // namespace hdae::examples
