#include "io/text_table.hpp"

#include <algorithm>
#include <cmath>
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

std::string with_commas(unsigned long long value) {
  const std::string digits = std::to_string(value);
  std::string grouped;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return grouped;
}

std::string si_scaled(double value) {
  static constexpr const char* prefixes[] = {"", " k", " M", " G", " T"};
  std::size_t i = 0;
  while (std::abs(value) >= 1000.0 && i + 1 < std::size(prefixes)) {
    value /= 1000.0;
    ++i;
  }
  return fmt::format("{:.3g}{}", value, prefixes[i]);
}

}  // namespace rackscale::io
