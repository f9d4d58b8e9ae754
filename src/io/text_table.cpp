#include "io/text_table.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::io {

TextTable::TextTable(std::vector<std::string> headings, std::vector<Align> align)
    : headings_(std::move(headings)), align_(std::move(align)) {
  if (headings_.size() != align_.size()) throw std::invalid_argument("TextTable: one alignment per column");
}

void TextTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != headings_.size())
    throw std::invalid_argument(
        fmt::format("TextTable: row has {} cells, table has {} columns", cells.size(), headings_.size()));
  rows_.push_back(std::move(cells));
}

std::string TextTable::render() const {
  std::vector<std::size_t> width(headings_.size());
  for (std::size_t c = 0; c < headings_.size(); ++c) {
    width[c] = headings_[c].size();
    for (const auto& row : rows_) width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  const auto emit = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (c > 0) out += "  ";
      if (align_[c] == Align::right)
        out += fmt::format("{:>{}}", cells[c], width[c]);
      else
        out += c + 1 == cells.size() ? cells[c] : fmt::format("{:<{}}", cells[c], width[c]);
    }
    out += '\n';
  };
  emit(headings_);
  std::vector<std::string> rule;
  for (std::size_t w : width) rule.emplace_back(w, '-');
  emit(rule);
  for (const auto& row : rows_) emit(row);
  return out;
}

}  // namespace rackscale::io
