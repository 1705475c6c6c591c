@main
struct Dosebar {
    static func main() {}
}
