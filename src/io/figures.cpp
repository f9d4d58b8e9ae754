#include "io/figures.hpp"

#include <cmath>
#include <span>
#include <stdexcept>

#include <fmt/format.h>

#include "io/results_columns.hpp"

namespace rackscale::io {

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
// Spelled out for clang 14 (the fuzz preset), which lacks C++20's deduction for aggregates.
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

nlohmann::ordered_json number(double x) { return std::isnan(x) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(x); }

std::size_t rows(const ColumnValues& values) {
  return std::visit(Overloaded{[](const Enumeration& e) { return e.values.size(); },
                               [](const auto& v) { return v.size(); }},
                    values);
}

nlohmann::ordered_json cell(const ColumnValues& values, std::size_t row) {
  return std::visit(Overloaded{[&](const Enumeration& e) { return nlohmann::ordered_json(e.names.at(e.values[row])); },
                               [&](const std::vector<double>& v) { return number(v[row]); },
                               [&](const auto& v) { return nlohmann::ordered_json(v[row]); }},
                    values);
}

}  // namespace

void add_figures(nlohmann::ordered_json& object, const Figures& figures) {
  for (const auto& f : figures)
    object[f.name] = std::visit(Overloaded{[](double x) { return number(x); },
                                           [](const auto& x) { return nlohmann::ordered_json(x); }},
                                f.value);
}

nlohmann::ordered_json figures_json(const Figures& figures) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  add_figures(j, figures);
  return j;
}

void write_figures(hdf5::Group& group, const Figures& figures) {
  for (const auto& f : figures)
    std::visit(Overloaded{[&](const std::vector<std::string>& list) {
                            group.set_attribute(f.name, std::span<const std::string>(list));
                          },
                          [&](const auto& x) { group.set_attribute(f.name, x); }},
               f.value);
}

nlohmann::ordered_json table_json(const Table& table) {
  nlohmann::ordered_json records = nlohmann::ordered_json::array();
  const std::size_t count = table.empty() ? 0 : rows(table.front().values);
  for (const auto& column : table)
    if (rows(column.values) != count)
      throw std::logic_error(fmt::format("table: column {} has {} rows, not {}", column.name, rows(column.values), count));
  for (std::size_t row = 0; row < count; ++row) {
    nlohmann::ordered_json record = nlohmann::ordered_json::object();
    for (const auto& column : table) record[column.name] = cell(column.values, row);
    records.push_back(std::move(record));
  }
  return records;
}

void write_table(hdf5::Group& group, const Table& table) {
  for (const auto& c : table)
    std::visit(Overloaded{[&](const Enumeration& e) {
                            write_replicated_column(group, c.name, e.values, c.units, c.description, e.names);
                          },
                          [&](const std::vector<std::string>& v) { write_replicated_strings(group, c.name, v, c.description); },
                          [&](const auto& v) { write_replicated_column(group, c.name, v, c.units, c.description); }},
               c.values);
}

}  // namespace rackscale::io
